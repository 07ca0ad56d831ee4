import { ApiError } from './api-error.js';
import { FormError } from './form-error.js';
import type { MessageKey, Translate } from './i18n/translate.js';
import type { Lang } from './language.js';

/**
 * What the console says when an admin call fails: a sentence in the page's language, and maybe the
 * server's `detail`. The service writes its details in English only, so the detail comes with a
 * lead-in in the page's language ("Detail:", « Détail (en anglais) : ») and is shown marked
 * `lang="en"`, for a screen reader to pronounce it as English.
 */
export interface ProblemMessage {
  readonly sentence: string;
  /** The server's `detail` and its lead-in; null when it is left out. */
  readonly detail: { readonly lead: string; readonly text: string } | null;
}

/**
 * The message of an error, chosen by the status (docs/protocol.md#errors tells to match on the
 * status or the type, never on `detail`). The detail follows where it tells the user what to fix:
 * 400 and 409 in both languages, 404 in English only (in French the sentence says it all, and an
 * English "no product x" after « Introuvable. » would add a language for nothing). `detail` never
 * holds a key or a token (docs/protocol.md#errors), so it may be shown. Never raw JSON. A form the
 * console refused itself (FormError) already holds its sentence.
 */
export function problemMessage(error: unknown, t: Translate, lang: Lang): ProblemMessage {
  if (error instanceof FormError) return { sentence: error.message, detail: null };
  if (!(error instanceof ApiError)) return alone(t('error.unexpected'));
  const { status } = error;
  const text = error.problem?.detail ?? '';
  const withDetail = (key: MessageKey): ProblemMessage => ({
    sentence: t(key),
    detail: text === '' ? null : { lead: t('error.detailLead'), text },
  });
  if (status === 0 || status >= 500) return alone(t('error.unavailable'));
  if (status === 401) return alone(t('error.unauthorized'));
  if (status === 403) return alone(t('error.forbidden'));
  if (status === 404) return lang === 'en' ? withDetail('error.notFound') : alone(t('error.notFound'));
  if (status === 409) return withDetail('error.conflict');
  if (status === 429) {
    return alone(
      error.retryAfter === null ? t('error.rateLimited') : t('error.rateLimitedFor', { seconds: error.retryAfter }),
    );
  }
  if (status === 400) return withDetail('error.invalid');
  return alone(t('error.refused'));
}

/** The message as one line of text, as a screen reader reads the alert. */
export function problemText(message: ProblemMessage): string {
  const { sentence, detail } = message;
  return detail === null ? sentence : `${sentence} ${detail.lead} ${detail.text}`;
}

function alone(sentence: string): ProblemMessage {
  return { sentence, detail: null };
}
