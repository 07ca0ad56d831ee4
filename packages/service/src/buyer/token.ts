import type { Verifier } from '../ports/index.js';
import type { Signer } from '../ports/index.js';

/**
 * The token of a buyer link (docs/protocol.md#buyer-links): what lets whoever holds the link see a
 * key and move its sites, without an account. It is made and checked by the service alone, so it is
 * signed with the service's own Ed25519 key (the verdicts' `Signer`) and carries what it grants: the
 * key's store id and the link's expiry, in whole seconds, and the key's hint, so that a store id
 * reused by another database under the same signing key never opens another key.
 *
 * `<payload>.<signature>`, both URL-safe base64 without padding (RFC 4648 5): the payload is the
 * UTF-8 text `<expiry>.<key id>.<hint>`, the signature is over `BUYER_TOKEN_CONTEXT` + that text. The
 * context line keeps the two signatures of the service apart: a verdict signs the canonical JSON of
 * `donnees`, which starts with `{`, so no verdict's signature is ever a token's, nor the reverse.
 *
 * The key id is no secret (the link is the credential, and only the key's holder gets it), and the
 * link dies with its key: the routes look the key up and refuse one that is no longer alive.
 * Rotating the signing key ends every outstanding link: their signatures no longer verify.
 */

/** What the signed message starts with (domain separation; the `v1` names this format). */
export const BUYER_TOKEN_CONTEXT = 'licence buyer link v1\n';

/** A store id as a token may carry it: what every store makes (digits), and room for others. */
const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A key's hint: its last four characters (docs/protocol.md#key-normalisation). */
const HINT = /^[0-9A-Z]{4}$/;
/** The payload text: the expiry (decimal, no leading zero), the key id and its hint. */
const PAYLOAD = /^(0|[1-9][0-9]{0,11})\.([A-Za-z0-9_-]{1,64})\.([0-9A-Z]{4})$/;
/** URL-safe base64 without padding; the lengths RFC 4648 allows (never 1 modulo 4). */
const BASE64URL = /^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2,3})?$/;
const SIGNATURE_BYTES = 64;
/** Far more than a token's ~110 characters: a longer path segment is refused unread. */
const MAX_TOKEN_LENGTH = 256;

/** The key a token opens: its store id and its hint. */
export interface BuyerTokenKey {
  readonly keyId: string;
  readonly hint: string;
}

export type BuyerTokenCheck =
  | ({ readonly status: 'valid'; readonly expires: number } & BuyerTokenKey)
  /** Malformed, or not signed by this service's key. */
  | { readonly status: 'invalid' }
  /** Signed by this service, but `now` is at or past its expiry. */
  | ({ readonly status: 'expired'; readonly expires: number } & BuyerTokenKey);

const encoder = new TextEncoder();

const signedMessage = (payload: string): Uint8Array => encoder.encode(BUYER_TOKEN_CONTEXT + payload);

/** A token for `key` valid until `expires` (Unix seconds, exclusive). */
export function makeBuyerToken(signer: Signer, key: BuyerTokenKey, expires: number): string {
  // The store's own ids and hints; anything else is a caller's bug, and the message names no secret.
  if (!KEY_ID.test(key.keyId)) throw new TypeError('keyId: expected 1 to 64 characters among A-Z a-z 0-9 _ -');
  if (!HINT.test(key.hint)) throw new TypeError('hint: expected four characters of the key alphabet');
  if (!Number.isSafeInteger(expires) || expires < 0) throw new TypeError('expires: expected whole seconds');
  const payload = `${expires}.${key.keyId}.${key.hint}`;
  const signature = signer.sign(signedMessage(payload));
  return `${toBase64Url(encoder.encode(payload))}.${toBase64Url(signature)}`;
}

/**
 * What `token` grants at `now`, its signature checked by `verifier` (the service signer's key, on
 * node:crypto: createNodeVerifier): 'invalid' for anything this service did not sign as it is,
 * 'expired' from its expiry on. Never throws for a bad token: it is data (CONTRIBUTING.md#code-style,
 * `verify*`). The signature is checked last, after every cheaper test of the text; the routes count
 * the request against the client's rate limit before they call this (docs/protocol.md#buyer-links).
 */
export function checkBuyerToken(verifier: Verifier, token: string, now: number): BuyerTokenCheck {
  if (token.length > MAX_TOKEN_LENGTH) return { status: 'invalid' };
  const [payloadPart = '', signaturePart = '', ...rest] = token.split('.');
  if (rest.length > 0) return { status: 'invalid' };
  const payloadBytes = fromBase64Url(payloadPart);
  const signature = fromBase64Url(signaturePart);
  if (payloadBytes === null || signature === null || signature.length !== SIGNATURE_BYTES) return { status: 'invalid' };
  const payload = new TextDecoder().decode(payloadBytes);
  const match = PAYLOAD.exec(payload);
  if (match === null || !verifier.verify(signature, signedMessage(payload))) return { status: 'invalid' };
  const expires = Number(match[1]);
  const key = { keyId: match[2] ?? '', hint: match[3] ?? '' };
  return { status: now < expires ? 'valid' : 'expired', expires, ...key };
}

function toBase64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}

/**
 * The bytes of canonical unpadded base64url, or null: Node's decoder skips what it does not know
 * and ignores stray bits, so the text must spell exactly the encoding of what it decodes to (one
 * spelling per token).
 */
function fromBase64Url(text: string): Uint8Array | null {
  if (text === '' || !BASE64URL.test(text)) return null;
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.toString('base64url') !== text) return null;
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
