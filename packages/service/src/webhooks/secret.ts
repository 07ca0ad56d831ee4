import { encodeBase64, type RandomBytes, tryDecodeBase64, typeName, ValidationError } from '@licence/core';

/**
 * An endpoint's signing secret (docs/protocol.md#webhooks): `whsec_` followed by the standard,
 * padded base64 (RFC 4648 section 4) of 32 random bytes, the form the Standard Webhooks libraries
 * read (standardwebhooks.com, "Signature scheme": the `whsec_` prefix is stripped and the rest
 * base64-decoded into the HMAC key). 32 bytes is SHA-256's block-half and output size: the
 * specification asks for 24 to 64; we issue exactly 32 and accept only that, so a secret has one
 * spelling and a truncated paste is caught at once.
 *
 * Messages name the rule, never the value: a secret must not reach a log line.
 */

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_SECRET_BYTES = 32;

/** A new secret from the `random` port (node's CSPRNG in production). Shown once, to its endpoint's owner. */
export function newWebhookSecret(random: RandomBytes): string {
  const bytes = random(WEBHOOK_SECRET_BYTES);
  if (!(bytes instanceof Uint8Array) || bytes.length !== WEBHOOK_SECRET_BYTES) {
    throw new ValidationError('random', `random: expected ${WEBHOOK_SECRET_BYTES} bytes, got ${typeName(bytes)}`);
  }
  return `${WEBHOOK_SECRET_PREFIX}${encodeBase64(bytes)}`;
}

/** The HMAC key a secret stands for; a ValidationError (naming `field`) when it is not one of ours. */
export function parseWebhookSecret(secret: unknown, field = 'secret'): Uint8Array {
  if (typeof secret !== 'string') {
    throw new ValidationError(field, `${field}: expected a string, got ${typeName(secret)}`);
  }
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) {
    throw new ValidationError(field, `${field}: expected a webhook secret starting with ${WEBHOOK_SECRET_PREFIX}`);
  }
  const bytes = tryDecodeBase64(secret.slice(WEBHOOK_SECRET_PREFIX.length));
  if (bytes === null) {
    throw new ValidationError(field, `${field}: expected canonical padded base64 after ${WEBHOOK_SECRET_PREFIX}`);
  }
  if (bytes.length !== WEBHOOK_SECRET_BYTES) {
    throw new ValidationError(field, `${field}: expected ${WEBHOOK_SECRET_BYTES} bytes, got ${bytes.length}`);
  }
  return bytes;
}
