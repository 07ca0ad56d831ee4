import { createHmac } from 'node:crypto';
import { typeName, ValidationError } from '@licence/core';
import { parseWebhookSecret } from './secret.js';

/**
 * Signing a delivery exactly as Standard Webhooks specifies (standardwebhooks.com, "Signature
 * scheme"; docs/protocol.md#webhooks), so a shop verifies it with any of that project's libraries:
 *
 * - `webhook-id`: the message id, the same on every attempt of one delivery (receivers dedupe on it);
 * - `webhook-timestamp`: the attempt's time in whole Unix seconds (receivers refuse one more than
 *   5 minutes off, against replays, so it is the attempt's time, not the event's);
 * - `webhook-signature`: `v1,` + base64 (RFC 4648 section 4) of HMAC-SHA256 (RFC 2104) keyed with
 *   the secret's bytes over `{id}.{timestamp}.{body}` (the body's UTF-8 bytes, as sent).
 *
 * Several secrets give several space-separated signatures, one per secret, in the order given: during
 * a rotation the old and the new secret both sign, and a receiver holding either one accepts.
 */

export interface WebhookMessage {
  /** Letters, digits, `_` and `-` (a header value, part of the signed text), 1 to 64 characters. */
  readonly id: string;
  /** Unix seconds. */
  readonly timestamp: number;
  /** The exact request body. */
  readonly body: string;
}

export interface WebhookHeaders {
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
}

const MESSAGE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The three headers of one attempt; throws a ValidationError on a bad message or secret (never echoing a secret). */
export function signWebhook(message: WebhookMessage, secrets: readonly string[]): WebhookHeaders {
  checkMessage(message);
  if (!Array.isArray(secrets) || secrets.length === 0) {
    throw new ValidationError('secrets', 'secrets: expected at least one webhook secret');
  }
  const keys = secrets.map((secret, index) => parseWebhookSecret(secret, `secrets[${index}]`));
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(message.timestamp),
    'webhook-signature': keys.map((key) => webhookSignature(key, message)).join(' '),
  };
}

/** One `v1,<base64>` signature with raw key bytes (exported for the specification's own test vector). */
export function webhookSignature(key: Uint8Array, message: WebhookMessage): string {
  const mac = createHmac('sha256', key).update(`${message.id}.${message.timestamp}.${message.body}`, 'utf8');
  return `v1,${mac.digest('base64')}`;
}

function checkMessage(message: WebhookMessage): void {
  if (typeof message.id !== 'string' || !MESSAGE_ID.test(message.id)) {
    throw new ValidationError('id', 'id: expected 1 to 64 letters, digits, _ or -');
  }
  const { timestamp } = message;
  if (typeof timestamp !== 'number' || !Number.isSafeInteger(timestamp) || timestamp < 0) {
    const got = typeof timestamp === 'number' ? String(timestamp) : typeName(timestamp);
    throw new ValidationError('timestamp', `timestamp: expected whole Unix seconds, got ${got}`);
  }
  if (typeof message.body !== 'string') {
    throw new ValidationError('body', `body: expected a string, got ${typeName(message.body)}`);
  }
}
