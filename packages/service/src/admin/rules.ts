import {
  BUILTIN_STAGING_HOSTS,
  isStagingHost,
  isValidationError,
  MAX_QUAND_SECONDS,
  normalizeKey,
  parseHost,
  parseStagingPatterns,
  type KeyKind,
} from '@licence/core';
import { type AdminError, adminError } from './errors.js';
import { checkWebhookUrl } from '../webhooks/index.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../webhooks/index.js';

/**
 * The rules of key administration's inputs (docs/protocol.md#key-lifecycle, #administration), on
 * typed values: each returns the value to keep or throws an `INVALID_FIELD` error whose message
 * names the field. The operations apply them to whatever their caller gives (the CLI's values, or
 * what fields.ts read from a JSON body).
 */

/** Most domains one key may bind: beyond, a licence is a site licence, not a domain list. */
export const MAX_SITES = 1000;

/** Longest revocation reason kept (it is for the author's own records). */
export const MAX_REASON_LENGTH = 1000;

/** Longest display text (an author, a product name). */
export const MAX_TEXT_LENGTH = 200;

/** Longest label of an author token (docs/protocol.md#authors). */
export const MAX_LABEL_LENGTH = 100;

/** The activity route's range (docs/protocol.md#activity): 1 to 366 days, 30 unless asked. */
export const MAX_ACTIVITY_DAYS = 366;
export const DEFAULT_ACTIVITY_DAYS = 30;

const invalid = (field: string, problem: string): AdminError => adminError('INVALID_FIELD', field, problem);

const SLUG = /^[a-z0-9._-]{1,64}$/;

/**
 * A product id: the slug of `produit` (docs/protocol.md#product-and-nonce), `[a-z0-9._-]{1,64}`.
 */
export function slug(name: string, value: string): string {
  if (!SLUG.test(value)) throw invalid(name, 'expected 1 to 64 characters among a-z, 0-9, ".", "_" and "-"');
  return value;
}

// C0 and C1 controls, and the line and paragraph separators: nothing a name needs.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** A display text, trimmed: 1 to `max` characters, no control character. */
export function text(name: string, value: string, max = MAX_TEXT_LENGTH): string {
  const trimmed = value.trim();
  if (trimmed === '') throw invalid(name, 'is empty');
  if (trimmed.length > max) throw invalid(name, `expected at most ${max} characters, got ${trimmed.length}`);
  if (CONTROL.test(trimmed)) throw invalid(name, 'must not hold control characters');
  return trimmed;
}

/**
 * An author token's label (docs/protocol.md#authors), trimmed: at most 100 characters, no control
 * character. Absent or blank is no label (null): a console's empty field means none.
 */
export function label(value: string | undefined): string | null {
  if (value === undefined || value.trim() === '') return null;
  return text('label', value, MAX_LABEL_LENGTH);
}

/** `days` of the activity route (docs/protocol.md#activity): an integer from 1 to 366, default 30. */
export function days(value: number | undefined): number {
  if (value === undefined) return DEFAULT_ACTIVITY_DAYS;
  if (!Number.isInteger(value) || value < 1 || value > MAX_ACTIVITY_DAYS) {
    throw invalid('days', `expected an integer from 1 to ${MAX_ACTIVITY_DAYS}`);
  }
  return value;
}

/**
 * `sites`, the domains a key may bind: for buyer and trial keys, 1 to 1000, default 1; a dev key
 * binds nothing and is stored with 0 (docs/protocol.md#key-lifecycle).
 */
export function sites(value: number | undefined, kind: KeyKind): number {
  if (kind === 'dev') {
    if (value !== undefined) throw invalid('sites', 'a dev key binds no domain; leave sites out');
    return 0;
  }
  if (value === undefined) return 1;
  if (!Number.isInteger(value) || value < 1 || value > MAX_SITES) {
    throw invalid('sites', `expected an integer from 1 to ${MAX_SITES}`);
  }
  return value;
}

/** Whether a key of `kind` may have an end: a trial must, other kinds must not. */
export function expireAllowed(given: boolean, kind: KeyKind): void {
  if (kind !== 'trial') {
    if (given) throw invalid('expire', `only a trial key has an end; leave expire out for a ${kind} key`);
  } else if (!given) {
    throw invalid('expire', 'is required for a trial key');
  }
}

/**
 * `expire` (docs/protocol.md#administration), whole seconds since the epoch or a Date (fractions of
 * a second dropped): only for a trial, which requires it; in the future, no later than
 * 9999-12-31T23:59:59Z (what `quand` can show). Null for the other kinds.
 */
export function expire(value: number | Date | undefined, kind: KeyKind, now: number): number | null {
  expireAllowed(value !== undefined, kind);
  if (value === undefined) return null;
  const seconds = Math.floor(value instanceof Date ? value.getTime() / 1000 : value);
  if (!Number.isFinite(seconds)) throw invalid('expire', 'expected a valid date and time');
  if (seconds <= now) throw invalid('expire', 'must be in the future');
  if (seconds > MAX_QUAND_SECONDS) throw invalid('expire', 'must be no later than 9999-12-31T23:59:59Z');
  return seconds;
}

/** Runs a core check and turns its ValidationError into `INVALID_FIELD` for `name`. */
function coreCheck<T>(name: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (!isValidationError(error)) throw error;
    // Core's messages name their own field first (`cle: ...`, `url: ...`): here it is `name`.
    const prefix = `${error.field}: `;
    throw invalid(name, error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message);
  }
}

/** A key as given (any spelling, docs/protocol.md#key-normalisation), normalised. */
export function key(cle: string): string {
  return coreCheck('cle', () => normalizeKey(cle));
}

/**
 * `from` / `to` of a transfer (docs/protocol.md#key-lifecycle): hosts, normalised to their
 * registrable domains with core's host rules. `to` must name a domain that can be bound: a test
 * host with no registrable domain of its own (`localhost`, `x.local`) or a hosting provider's
 * staging host (`a.kinsta.cloud`) never consumes a slot (docs/protocol.md#test-hosts), so binding
 * its domain would only waste one.
 */
export function transferDomain(name: 'from' | 'to', value: string): string {
  const host = coreCheck(name, () => parseHost(value));
  const { registrable } = host;
  // `a.kinsta.cloud` matches a hosting provider's staging pattern (docs/protocol.md#staging-hosts)
  // while its registrable domain `kinsta.cloud` does not: binding that would take a slot no verdict
  // of the buyer's ever uses. (`dev.exemple.fr` is a test host too, but `exemple.fr` is a site.)
  const staging = isStagingHost(host.hote, BUILTIN_STAGING_HOSTS);
  if (name === 'to' && (staging || registrable === null || parseHost(registrable).test)) {
    throw invalid('to', 'a test or staging host is never bound; give the real domain');
  }
  // A `from` with no registrable domain is simply never bound: the caller gets the 409 for that.
  return registrable ?? value.trim().toLowerCase();
}

/**
 * A product's `staging` (docs/protocol.md#staging-hosts): host patterns whose leftmost label may
 * hold one `*`, normalised by core's rule (`parseStagingPatterns`: at most 50, each kept once, in
 * the order given). [] clears the list.
 */
export function staging(values: readonly string[]): string[] {
  return coreCheck('staging', () => parseStagingPatterns('staging', values));
}

/**
 * An endpoint's `url` (docs/protocol.md#webhooks, webhooks/destination.ts): https, no credentials nor
 * fragment, at most 2048 characters, no private, loopback or link-local address, unless
 * `allowPrivate` (LICENCE_WEBHOOK_ALLOW_PRIVATE=1). Answers the URL as the parser writes it (what is
 * stored and shown). The messages never repeat the URL: its query may hold the shop's credential.
 */
export function webhookUrl(value: string, allowPrivate: boolean): string {
  return coreCheck('url', () => checkWebhookUrl(value, { allowPrivate }).href);
}

/**
 * An endpoint's `events` (docs/protocol.md#webhooks): at least one, each a known type; kept each
 * once, in WEBHOOK_EVENT_TYPES order, whatever the order and repeats given, so that two endpoints
 * subscribed to the same events list them the same way.
 */
export function webhookEvents(values: readonly string[]): WebhookEventType[] {
  if (values.length === 0) throw invalid('events', 'expected at least one event type');
  const unknown = values.find((value) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(value));
  if (unknown !== undefined) {
    // The unknown name is quoted (cut to 40 characters): it is what the caller typed wrong.
    const known = WEBHOOK_EVENT_TYPES.map((type) => `"${type}"`).join(', ');
    throw invalid('events', `unknown event type ${JSON.stringify(unknown.slice(0, 40))}; expected among ${known}`);
  }
  return WEBHOOK_EVENT_TYPES.filter((type) => values.includes(type));
}
