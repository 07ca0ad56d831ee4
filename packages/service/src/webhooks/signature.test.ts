import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { randomBytes } from '../ports/index.js';
import { newWebhookSecret } from './secret.js';
import { signWebhook, webhookSignature } from './signature.js';

// The `standardwebhooks` npm library (the specification's reference implementation, not ours) is
// the verifier throughout: what it accepts, a shop's receiver accepts.

const body = '{"type":"key.revoked","timestamp":"2026-01-01T00:00:00Z","data":{"hint":"211G"}}';
const now = () => Math.floor(Date.now() / 1000);
const verifies = (secret: string, payload: string, headers: Record<string, string>) => {
  try {
    new Webhook(secret).verify(payload, headers);
    return true;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return false;
    throw error;
  }
};

describe('signWebhook (standardwebhooks.com, docs/protocol.md#webhooks)', () => {
  it('writes the three headers', () => {
    const secret = newWebhookSecret(randomBytes);
    const headers = signWebhook({ id: 'msg_1', timestamp: 1767225600, body }, [secret]);
    expect(Object.keys(headers).sort()).toEqual(['webhook-id', 'webhook-signature', 'webhook-timestamp']);
    expect(headers['webhook-id']).toBe('msg_1');
    expect(headers['webhook-timestamp']).toBe('1767225600');
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('is accepted by the reference library', () => {
    const secret = newWebhookSecret(randomBytes);
    const headers = signWebhook({ id: 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W', timestamp: now(), body }, [secret]);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('signs with every secret of a rotation, each accepted on its own', () => {
    const [old, next, third] = [1, 2, 3].map(() => newWebhookSecret(randomBytes));
    const secrets = [old ?? '', next ?? ''];
    const headers = signWebhook({ id: 'msg_rotation', timestamp: now(), body }, secrets);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of secrets) expect(verifies(secret, body, { ...headers })).toBe(true);
    expect(verifies(third ?? '', body, { ...headers })).toBe(false);
  });

  it('is refused for a changed body, a wrong secret, another id or a stale timestamp', () => {
    const secret = newWebhookSecret(randomBytes);
    const fresh = { ...signWebhook({ id: 'msg_a', timestamp: now(), body }, [secret]) };
    expect(verifies(secret, body.replace('211G', '211H'), fresh)).toBe(false);
    expect(verifies(newWebhookSecret(randomBytes), body, fresh)).toBe(false);
    expect(verifies(secret, body, { ...fresh, 'webhook-id': 'msg_b' })).toBe(false);
    // The library's tolerance is 5 minutes each way.
    const stale = { ...signWebhook({ id: 'msg_a', timestamp: now() - 600, body }, [secret]) };
    expect(verifies(secret, body, stale)).toBe(false);
    expect(verifies(secret, body, fresh)).toBe(true);
  });

  it('signs what the library signs, for any UTF-8 body', () => {
    const secret = newWebhookSecret(randomBytes);
    for (const text of ['', 'é', '{"hote":"exemple.fr","nom":"Zoë 🎉"}', 'a.b.c', '\u2028']) {
      const ours = signWebhook({ id: 'msg_u', timestamp: 1767225600, body: text }, [secret]);
      const theirs = new Webhook(secret).sign('msg_u', new Date(1767225600 * 1000), text);
      expect(ours['webhook-signature']).toBe(theirs);
    }
  });

  it('matches fixed vectors', () => {
    // Computed once with standardwebhooks 1.1.1's Webhook#sign, an independent HMAC (fast-sha256).
    const zeroToThirtyOne = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';
    const thirtyOneDown = 'whsec_//79/Pv6+fj39vX08/Lx8O/u7ezr6uno5+bl5OPi4eA=';
    const message = { id: 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W', timestamp: 1767225600, body };
    expect(signWebhook(message, [zeroToThirtyOne, thirtyOneDown])['webhook-signature']).toBe(
      'v1,H8Seexz35GSP4V0OmXNesUFGsMFMPtWuNmqAvhLXZGk= v1,EK8leJBBKouJPKs1+y4sfbCrmgE54NhHT5z7/x2pDVg=',
    );
    // The specification's own example (a 24-byte secret, which our secrets never are).
    const specKey = Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64');
    const spec = { id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp: 1614265330, body: '{"test": 2432232314}' };
    expect(webhookSignature(specKey, spec)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it.each([
    [{ id: '', timestamp: 1, body }, 'id: expected 1 to 64 letters, digits, _ or -'],
    [{ id: 'msg.1', timestamp: 1, body }, 'id: expected 1 to 64 letters, digits, _ or -'],
    [{ id: 'msg\r\nx: y', timestamp: 1, body }, 'id: expected 1 to 64 letters, digits, _ or -'],
    [{ id: 'm'.repeat(65), timestamp: 1, body }, 'id: expected 1 to 64 letters, digits, _ or -'],
    [{ id: 'msg', timestamp: 1.5, body }, 'timestamp: expected whole Unix seconds, got 1.5'],
    [{ id: 'msg', timestamp: -1, body }, 'timestamp: expected whole Unix seconds, got -1'],
    [{ id: 'msg', timestamp: '1', body }, 'timestamp: expected whole Unix seconds, got string'],
    [{ id: 'msg', timestamp: 1, body: 3 }, 'body: expected a string, got number'],
  ])('refuses the message %j', (message, expected) => {
    const secret = newWebhookSecret(randomBytes);
    // @ts-expect-error: wrong types on purpose, as untyped callers might pass them
    expect(() => signWebhook(message, [secret])).toThrow(expected);
  });

  it('refuses no secret, and names the bad secret by position without echoing it', () => {
    const message = { id: 'msg', timestamp: 1, body };
    expect(() => signWebhook(message, [])).toThrow('secrets: expected at least one webhook secret');
    const good = newWebhookSecret(randomBytes);
    const bad = good.slice(0, -1);
    let thrown: unknown;
    try {
      signWebhook(message, [good, bad]);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    const text = thrown instanceof Error ? thrown.message : '';
    expect(text).toBe('secrets[1]: expected canonical padded base64 after whsec_');
    expect(text.includes(bad.slice(6, 16))).toBe(false);
  });
});
