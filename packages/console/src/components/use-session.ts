import { useEffect, useMemo, useState } from 'preact/hooks';
import { type Api, createApi } from '../api.js';
import { ApiError } from '../api-error.js';
import type { MeView } from '../api-types.js';
import type { Translate } from '../i18n/translate.js';
import type { Lang } from '../language.js';
import { type ProblemMessage, problemMessage } from '../problem-sentence.js';
import { clearToken, loadToken, saveToken } from '../session.js';

export interface Notices {
  readonly error: ProblemMessage | null;
  readonly success: string | null;
}

export const NO_NOTICES: Notices = { error: null, success: null };

interface Session {
  readonly token: string;
  /** Null until `GET admin/me` answered for a token found in sessionStorage. */
  readonly me: MeView | null;
}

export interface SessionState {
  /** Null while signed out. */
  readonly api: Api | null;
  /** Who the token is; null while signed out or while a kept token is being checked. */
  readonly me: MeView | null;
  readonly signedIn: boolean;
  readonly signIn: (token: string) => Promise<void>;
  readonly signOut: () => void;
  /** Shows an error's sentence; a 401 (token deleted, or wrong) signs out (docs/protocol.md#console). */
  readonly fail: (error: unknown) => void;
}

/**
 * The signed-in token and who it is. A token is kept only once `GET admin/me` accepted it; one
 * found in sessionStorage (a reload) is checked again before any page shows.
 */
export function useSession(
  base: string,
  i18n: { readonly t: Translate; readonly lang: Lang },
  setNotices: (notices: Notices) => void,
): SessionState {
  const [session, setSession] = useState<Session | null>(() => {
    const token = loadToken(sessionStorage);
    return token === null ? null : { token, me: null };
  });
  const api = useMemo(
    () => (session === null ? null : createApi({ base, token: session.token })),
    [base, session?.token],
  );
  const signOut = () => {
    clearToken(sessionStorage);
    setSession(null);
  };
  const fail = (error: unknown) => {
    if (error instanceof ApiError && error.status === 401) signOut();
    setNotices({ error: problemMessage(error, i18n.t, i18n.lang), success: null });
  };
  const signIn = async (token: string) => {
    setNotices(NO_NOTICES);
    try {
      const me = await createApi({ base, token }).me();
      saveToken(sessionStorage, token);
      setSession({ token, me });
    } catch (error) {
      fail(error);
    }
  };
  useEffect(() => {
    if (api === null || session === null || session.me !== null) return;
    api.me().then((me) => setSession((s) => (s === null ? s : { ...s, me })), fail);
  }, [api]);
  return { api, me: session?.me ?? null, signedIn: session !== null, signIn, signOut, fail };
}
