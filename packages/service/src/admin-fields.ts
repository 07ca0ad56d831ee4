import { isValidationError, KEY_KINDS, MAX_QUAND_SECONDS, parseHost, type KeyKind } from '@licence/core';
import { HttpError } from './problem.js';
import { isObject } from './request-body.js';

/**
 * Field checks of the admin API (docs/protocol.md#administration), each a 400 with an exact message
 * naming the field. Optional fields may be absent or null (JSON clients often send null for "not
 * given").
 */

const bad = (message: string) => new HttpError('invalid-request', message);

/** The body as an object; an absent body (`undefined`) is an empty one. */
export function adminBody(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (!isObject(body)) throw bad('body: expected a JSON object');
  return body;
}

const SLUG = /^[a-z0-9._-]{1,64}$/;

/**
 * A product id: the slug of `produit` (docs/protocol.md#product-and-nonce), `[a-z0-9._-]{1,64}`.
 */
export function slug(name: string, value: unknown): string {
  if (value === undefined || value === null) throw bad(`${name}: is required`);
  if (typeof value !== 'string') throw bad(`${name}: expected a string`);
  if (!SLUG.test(value)) throw bad(`${name}: expected 1 to 64 characters among a-z, 0-9, ".", "_" and "-"`);
  return value;
}

// C0 and C1 controls, and the line and paragraph separators: nothing a name needs.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** A required display text (an author, a product name): 1 to `max` characters, no control character. */
export function text(name: string, value: unknown, max = 200): string {
  if (value === undefined || value === null) throw bad(`${name}: is required`);
  if (typeof value !== 'string') throw bad(`${name}: expected a string`);
  const trimmed = value.trim();
  if (trimmed === '') throw bad(`${name}: is empty`);
  if (trimmed.length > max) throw bad(`${name}: expected at most ${max} characters, got ${trimmed.length}`);
  if (CONTROL.test(trimmed)) throw bad(`${name}: must not hold control characters`);
  return trimmed;
}

/** An optional text; null when absent. */
export function optionalText(name: string, value: unknown, max: number): string | null {
  if (value === undefined || value === null) return null;
  return text(name, value, max);
}

/** `kind`: buyer, trial or dev (docs/protocol.md#key-lifecycle). */
export function kind(value: unknown): KeyKind {
  if (value === undefined || value === null) throw bad('kind: is required');
  const found = KEY_KINDS.find((candidate) => candidate === value);
  if (found === undefined) throw bad('kind: expected one of "buyer", "trial", "dev"');
  return found;
}

/** Most domains one key may bind: beyond, a licence is a site licence, not a domain list. */
export const MAX_SITES = 1000;

/**
 * `sites`: for buyer and trial keys, 1 to 1000, default 1; a dev key binds nothing
 * (docs/protocol.md#key-lifecycle).
 */
export function sites(value: unknown, keyKind: KeyKind): number {
  if (keyKind === 'dev') {
    if (value !== undefined && value !== null) throw bad('sites: a dev key binds no domain; leave sites out');
    return 0;
  }
  if (value === undefined || value === null) return 1;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_SITES) {
    throw bad(`sites: expected an integer from 1 to ${MAX_SITES}`);
  }
  return value;
}

// RFC 3339 (the internet profile of ISO 8601): a full date and time with a zone, so that the
// instant is never guessed. Fractions of a second are accepted and dropped.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?([Zz]|[+-]\d{2}:\d{2})$/;

/** An ISO 8601 date-time with a zone, to whole seconds since the epoch; null when not one. */
export function parseDateTime(value: string): number | null {
  const match = DATE_TIME.exec(value);
  if (match === null) return null;
  const [, y, mo, d, h, mi, s = '0', zone = 'Z'] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0 to 99 as 1900 to 1999.
  const check = new Date(0);
  check.setUTCFullYear(year, month - 1, day);
  check.setUTCHours(hour, minute, second, 0);
  const ms = check.getTime();
  // A day the month does not have (31 February) rolls over into the next month: refuse it.
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return null;
  let offset = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const zh = Number(zone.slice(1, 3));
    const zm = Number(zone.slice(4, 6));
    if (zh > 23 || zm > 59) return null;
    offset = sign * (zh * 60 + zm) * 60;
  }
  return Math.floor(ms / 1000) - offset;
}

/**
 * `expire` (docs/protocol.md#administration): required for a trial, refused for other kinds, an ISO
 * 8601 date-time with a zone, in the future, no later than 9999-12-31T23:59:59Z (what `quand` can
 * show).
 */
export function expire(value: unknown, keyKind: KeyKind, now: number): number | null {
  const given = value !== undefined && value !== null;
  if (keyKind !== 'trial') {
    if (given) throw bad(`expire: only a trial key has an end; leave expire out for a ${keyKind} key`);
    return null;
  }
  if (!given) throw bad('expire: is required for a trial key');
  if (typeof value !== 'string') throw bad('expire: expected a string');
  const seconds = parseDateTime(value);
  if (seconds === null) {
    throw bad('expire: expected an ISO 8601 date-time with a time zone, such as 2026-12-31T23:59:59Z');
  }
  if (seconds <= now) throw bad('expire: must be in the future');
  if (seconds > MAX_QUAND_SECONDS) throw bad('expire: must be no later than 9999-12-31T23:59:59Z');
  return seconds;
}

/**
 * `from` / `to` of a transfer (docs/protocol.md#key-lifecycle): hosts, normalised to their
 * registrable domains with core's host rules. Core's message names `url`; here it names the field.
 * `to` must name a domain that can be bound: a test host with no registrable domain of its own
 * (`localhost`, `x.local`) never consumes a slot (docs/protocol.md#test-hosts), so binding it would
 * only waste one.
 */
export function transferDomain(name: 'from' | 'to', value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw bad(`${name}: expected a string`);
  let registrable: string | null;
  try {
    registrable = parseHost(value).registrable;
  } catch (error) {
    if (isValidationError(error)) throw bad(error.message.replace(/^url:/, `${name}:`));
    throw error;
  }
  if (name === 'to' && (registrable === null || parseHost(registrable).test)) {
    throw bad('to: a test or staging host is never bound; give the real domain');
  }
  // A `from` with no registrable domain is simply never bound: the caller gets the 409 for that.
  return registrable ?? value.trim().toLowerCase();
}
