import { isRecord, isValidationError, typeName } from '@licence/core';
import { HttpError } from './problem.js';

/**
 * The body checks of docs/protocol.md#request, in its order: size (413), content coding and content
 * type (415), then the JSON itself (400). Every message names the rule and never quotes the body:
 * it may hold a key. The JSON parser's own message is never used for that reason (V8 quotes the
 * input in it).
 */

/** docs/protocol.md#limits: the public endpoint takes at most 8 KiB. */
export const MAX_BODY_BYTES = 8 * 1024;
/** The admin API takes more (a product name, a revocation reason): 64 KiB. */
export const MAX_ADMIN_BODY_BYTES = 64 * 1024;

/** 413 when the adapter gave up reading (`null`) or the body is longer than `max` bytes. */
export function checkBodySize(body: Uint8Array | null, max: number): Uint8Array {
  if (body === null || body.length > max) {
    throw new HttpError('body-too-large', `the request body must be at most ${max} bytes`);
  }
  return body;
}

/**
 * True for `application/json`, in any case and white space, whatever its parameters.
 * docs/protocol.md#request says a charset parameter is fine, and it says so of any charset: the
 * body is read as UTF-8 whatever the header claims (RFC 8259 8.1: JSON exchanged between systems
 * MUST be UTF-8), so a body that is not UTF-8 is still a 400 from `parseJsonObject`, never a
 * misread.
 */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const [type = ''] = header.split(';');
  return type.trim().toLowerCase() === 'application/json';
}

/** 415 unless the content type is JSON. */
export function checkJsonContentType(header: string | undefined): void {
  if (!isJsonContentType(header)) {
    throw new HttpError('unsupported-media-type', 'Content-Type must be application/json');
  }
}

/**
 * 415 when the body carries a content coding (RFC 9110 8.4: `Content-Encoding: gzip`...). The
 * service reads the bytes as they come and never decompresses them (docs/protocol.md#request):
 * `identity`, or no header, is the only coding taken. RFC 9110 12.5.3: the 415 of a content coding
 * carries `Accept-Encoding`, which tells it from a 415 of a media type (which must not carry it).
 * The header's value is never quoted: it is the caller's text.
 */
export function checkContentEncoding(header: string | undefined): void {
  if (header === undefined) return;
  const codings = header
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '');
  if (codings.every((coding) => coding === 'identity')) return;
  throw new HttpError('unsupported-media-type', 'Content-Encoding is not supported: send the body uncompressed', {
    headers: { 'Accept-Encoding': 'identity' },
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The body as a JSON object. An empty body (only white space) is `undefined` when `allowEmpty`
 * (the admin API, docs/protocol.md#administration: a missing body is fine wherever no field is
 * required), else a 400: without `allowEmpty` the answer is always an object.
 */
export function parseJsonObject(body: Uint8Array, allowEmpty?: false): Record<string, unknown>;
export function parseJsonObject(body: Uint8Array, allowEmpty: boolean): Record<string, unknown> | undefined;
export function parseJsonObject(body: Uint8Array, allowEmpty = false): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    // The decoder's error says nothing more than this message (and is the caller's fault).
    throw new HttpError('invalid-request', 'body: not valid UTF-8');
  }
  if (text.trim() === '') {
    if (allowEmpty) return undefined;
    throw new HttpError('invalid-request', 'body: is empty; expected a JSON object');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Deliberately dropped, not even kept as `cause`: the parser's message quotes the input,
    // which may hold a key, and a malformed body is the caller's fault, not ours to log.
    throw new HttpError('invalid-request', 'body: not valid JSON');
  }
  if (!isRecord(value)) {
    throw new HttpError('invalid-request', `body: expected a JSON object, got ${typeName(value)}`);
  }
  return value;
}

/** Runs a core check and turns its ValidationError into a 400 with core's exact message. */
export function field<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (isValidationError(error)) throw new HttpError('invalid-request', error.message, { cause: error });
    throw error;
  }
}
