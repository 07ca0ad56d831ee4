import { createHash } from 'node:crypto';
import type { RandomBytes } from '@licence/core';

/**
 * Author tokens (docs/protocol.md#authors): `lat_` and 32 random bytes in base64url (43
 * characters), stored as SHA-256 only and shown once. Like a licence key, 256 random bits need no
 * salt or slow hash: they cannot be guessed from a list. The prefix lets the admin API tell one from
 * the operator's token without asking the store, and lets a secret scanner find a leaked one.
 */

export const AUTHOR_TOKEN_PREFIX = 'lat_';
export const TOKEN_ID_PREFIX = 'tok_';

const TOKEN_BYTES = 32;
/** 12 bytes are 16 base64url characters: the id is unique, and no secret. */
const ID_BYTES = 12;

const AUTHOR_TOKEN = /^lat_[A-Za-z0-9_-]{43}$/;

const base64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');

/** SHA-256 of a token, lower-case hex: what the store keeps and looks up. */
export function hashAuthorToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** True when `token` has the form of an author token (only those are looked up in the store). */
export function isAuthorTokenShape(token: string): boolean {
  return AUTHOR_TOKEN.test(token);
}

/** A new token: its id, the token to show once, and its hash to store. */
export function newAuthorToken(random: RandomBytes): {
  readonly id: string;
  readonly token: string;
  readonly hash: string;
} {
  const token = AUTHOR_TOKEN_PREFIX + base64url(random(TOKEN_BYTES));
  return { id: TOKEN_ID_PREFIX + base64url(random(ID_BYTES)), token, hash: hashAuthorToken(token) };
}
