import { ValidationError } from '@licence/core';
import { invalid, type Parsed, parsed } from './parsed.js';
import { checkedWholeNumber } from './whole-number-option.js';

/**
 * The two settings of buyer links (docs/protocol.md#buyer-links, #configuration), read alike by every
 * adapter from the environment and checked again by `createService` from its options:
 *
 * - LICENCE_PUBLIC_URL (`publicUrl`): where buyers reach the service, an absolute http(s) URL with an
 *   optional path prefix (`https://licences.example.com`, `https://api.example.com/prod`), no
 *   credentials, query or fragment. Links are built on it, and a buyer's POST must come from its
 *   origin. Unset: each link is built from the admin request's own scheme and `Host`.
 * - LICENCE_BUYER_TRANSFERS_PER_30_DAYS (`buyerTransfersPer30Days`): how many transfers a buyer may
 *   make per key lineage in any 30 days, 0 to 100, default 3; 0 turns buyer transfers off.
 */

export const DEFAULT_BUYER_TRANSFERS_PER_30_DAYS = 3;
export const MAX_BUYER_TRANSFERS_PER_30_DAYS = 100;

/**
 * What is wrong with `text` as a public URL, or null. Never echoes a userinfo part (it could be a
 * password); the rest of a URL is no secret.
 */
export function publicUrlFault(text: string): string | null {
  if (!URL.canParse(text)) return 'expected an absolute http:// or https:// URL';
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'expected an http:// or https:// URL';
  if (url.username !== '' || url.password !== '') return 'must not hold a user name or password';
  // `new URL` drops an empty `?` or `#`: the text itself is looked at.
  if (text.includes('?') || text.includes('#')) return 'must not hold a query (?) or a fragment (#)';
  return null;
}

/** A checked public URL as links start with it: origin and path, without a trailing `/`. */
export function normalisePublicUrl(text: string): string {
  const url = new URL(text);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** LICENCE_PUBLIC_URL: unset, or a public URL (normalised). */
export function parsePublicUrl(raw: string | undefined): Parsed<string | undefined> {
  if (raw === undefined) return parsed(undefined);
  const fault = publicUrlFault(raw);
  if (fault === null) return parsed(normalisePublicUrl(raw));
  // A value with `@` may carry a password: it is not repeated.
  return invalid('LICENCE_PUBLIC_URL', `${fault}, got ${raw.includes('@') ? '(value not shown)' : `"${raw}"`}`);
}

/** LICENCE_BUYER_TRANSFERS_PER_30_DAYS: unset, or an integer from 0 to 100 (digits only). */
export function parseBuyerTransfers(raw: string | undefined): Parsed<number | undefined> {
  if (raw === undefined) return parsed(undefined);
  if (/^[0-9]{1,3}$/.test(raw) && Number(raw) <= MAX_BUYER_TRANSFERS_PER_30_DAYS) return parsed(Number(raw));
  return invalid(
    'LICENCE_BUYER_TRANSFERS_PER_30_DAYS',
    `expected an integer from 0 to ${MAX_BUYER_TRANSFERS_PER_30_DAYS}, got "${raw}"`,
  );
}

/** ServiceOptions `publicUrl`, checked and normalised; null when absent. */
export function checkedPublicUrl(value: unknown): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string') throw new ValidationError('publicUrl', 'publicUrl: expected a string');
  const fault = publicUrlFault(value);
  if (fault !== null) throw new ValidationError('publicUrl', `publicUrl: ${fault}`);
  return normalisePublicUrl(value);
}

/** ServiceOptions `buyerTransfersPer30Days`: an integer from 0 to 100; absent is 3. */
export function checkedBuyerTransfers(value: unknown): number {
  return checkedWholeNumber('buyerTransfersPer30Days', value, {
    min: 0,
    max: MAX_BUYER_TRANSFERS_PER_30_DAYS,
    fallback: DEFAULT_BUYER_TRANSFERS_PER_30_DAYS,
  });
}
