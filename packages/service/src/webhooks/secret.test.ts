import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { randomBytes } from '../ports/index.js';
import { newWebhookSecret, parseWebhookSecret, WEBHOOK_SECRET_BYTES } from './secret.js';

const counting = (length: number) => Uint8Array.from({ length }, (_, i) => i);

describe('newWebhookSecret (docs/protocol.md#webhooks)', () => {
  it('is whsec_ and the base64 of 32 random bytes', () => {
    expect(newWebhookSecret(counting)).toBe('whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=');
    expect(newWebhookSecret(randomBytes)).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(newWebhookSecret(randomBytes)).not.toBe(newWebhookSecret(randomBytes));
  });

  it('round-trips through parseWebhookSecret and is read by the reference library', () => {
    const secret = newWebhookSecret(randomBytes);
    expect(parseWebhookSecret(secret)).toHaveLength(WEBHOOK_SECRET_BYTES);
    expect(() => new Webhook(secret)).not.toThrow();
    expect(parseWebhookSecret(newWebhookSecret(counting))).toEqual(counting(32));
  });

  it('refuses a random port that gives the wrong length', () => {
    expect(() => newWebhookSecret(() => new Uint8Array(31))).toThrow('random: expected 32 bytes, got Uint8Array(31)');
  });
});

describe('parseWebhookSecret', () => {
  const valid = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';
  it.each([
    [42, 'secret: expected a string, got number'],
    ['AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=', 'secret: expected a webhook secret starting with whsec_'],
    ['WHSEC_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=', 'secret: expected a webhook secret starting with whsec_'],
    ['whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8', 'secret: expected canonical padded base64 after whsec_'],
    ['whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh-_', 'secret: expected canonical padded base64 after whsec_'],
    [`${valid} `, 'secret: expected canonical padded base64 after whsec_'],
    ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'secret: expected 32 bytes, got 24'],
    ['whsec_', 'secret: expected 32 bytes, got 0'],
  ])('refuses %j', (input, message) => {
    expect(() => parseWebhookSecret(input)).toThrow(message);
  });

  it('names the field it is given', () => {
    expect(() => parseWebhookSecret('nope', 'secrets[2]')).toThrow(
      'secrets[2]: expected a webhook secret starting with whsec_',
    );
  });
});
