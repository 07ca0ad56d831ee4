import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Api } from '../api.js';
import type { MeView } from '../api-types.js';
import type { Translate } from '../i18n/translate.js';
import type { Lang } from '../language.js';

/** What every page of a signed-in console reads: language, the API with the token, who is signed in, the notices. */
export interface AppContextValue {
  readonly lang: Lang;
  readonly t: Translate;
  readonly api: Api;
  readonly me: MeView;
  /** Shows the error's sentence in the alert region; a 401 signs out. */
  readonly fail: (error: unknown) => void;
  /** Shows a success in the polite live region. */
  readonly succeed: (message: string) => void;
  readonly clearNotices: () => void;
}

export const AppContext = createContext<AppContextValue | null>(null);

export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (value === null) throw new Error('useApp: used outside <AppContext.Provider>');
  return value;
}
