import { describe, expect, it } from 'vitest';
import { invalidField } from '../../test/invalid-field.js';
import {
  days,
  expire,
  expireAllowed,
  key,
  label,
  sites,
  slug,
  text,
  transferDomain,
  webhookEvents,
  webhookUrl,
} from './rules.js';
import { parseDateTime } from './parse-date-time.js';

const detail = invalidField;

const NOW = Date.parse('2026-11-22T10:14:00Z') / 1000;
const seconds = (iso: string): number => parseDateTime(iso) ?? Number.NaN;

describe('key administration rules', () => {
  it('slug', () => {
    expect(slug('id', 'mon-theme.v2_x')).toBe('mon-theme.v2_x');
    expect(detail(() => slug('id', 'Mon Theme'))).toBe(
      'id: expected 1 to 64 characters among a-z, 0-9, ".", "_" and "-"',
    );
    expect(detail(() => slug('id', 'a'.repeat(65)))).toBe(
      'id: expected 1 to 64 characters among a-z, 0-9, ".", "_" and "-"',
    );
    expect(detail(() => slug('id', ''))).toBe('id: expected 1 to 64 characters among a-z, 0-9, ".", "_" and "-"');
  });

  it('text', () => {
    expect(text('name', '  Mon Thème  ')).toBe('Mon Thème');
    expect(detail(() => text('name', ''))).toBe('name: is empty');
    expect(detail(() => text('name', 'x'.repeat(201)))).toBe('name: expected at most 200 characters, got 201');
    expect(detail(() => text('name', 'a\nb'))).toBe('name: must not hold control characters');
    expect(text('reason', 'fraud', 10)).toBe('fraud');
    expect(detail(() => text('reason', 'x'.repeat(11), 10))).toBe('reason: expected at most 10 characters, got 11');
  });

  it('label (docs/protocol.md#authors): optional, trimmed, at most 100 characters, no control character', () => {
    expect(label(undefined)).toBeNull();
    expect(label('   ')).toBeNull();
    expect(label('  shop  ')).toBe('shop');
    expect(label('x'.repeat(100))).toBe('x'.repeat(100));
    expect(detail(() => label('x'.repeat(101)))).toBe('label: expected at most 100 characters, got 101');
    expect(detail(() => label('a\u0007b'))).toBe('label: must not hold control characters');
  });

  it('days (docs/protocol.md#activity): an integer from 1 to 366, 30 when absent', () => {
    expect(days(undefined)).toBe(30);
    expect(days(1)).toBe(1);
    expect(days(366)).toBe(366);
    for (const value of [0, 367, 1.5, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(detail(() => days(value))).toBe('days: expected an integer from 1 to 366');
    }
  });

  it('sites', () => {
    expect(sites(undefined, 'buyer')).toBe(1);
    expect(sites(5, 'trial')).toBe(5);
    expect(sites(undefined, 'dev')).toBe(0);
    expect(detail(() => sites(0, 'buyer'))).toBe('sites: expected an integer from 1 to 1000');
    expect(detail(() => sites(1001, 'buyer'))).toBe('sites: expected an integer from 1 to 1000');
    expect(detail(() => sites(1.5, 'buyer'))).toBe('sites: expected an integer from 1 to 1000');
    expect(detail(() => sites(Number.NaN, 'buyer'))).toBe('sites: expected an integer from 1 to 1000');
    expect(detail(() => sites(2, 'dev'))).toBe('sites: a dev key binds no domain; leave sites out');
    expect(detail(() => sites(0, 'dev'))).toBe('sites: a dev key binds no domain; leave sites out');
  });

  it('expire: required for a trial, refused for other kinds, in the future', () => {
    const end = seconds('2026-12-31T23:59:59Z');
    expect(expire(end, 'trial', NOW)).toBe(end);
    expect(expire(undefined, 'buyer', NOW)).toBeNull();
    expect(detail(() => expire(undefined, 'trial', NOW))).toBe('expire: is required for a trial key');
    expect(detail(() => expireAllowed(false, 'trial'))).toBe('expire: is required for a trial key');
    expect(detail(() => expire(end, 'buyer', NOW))).toBe(
      'expire: only a trial key has an end; leave expire out for a buyer key',
    );
    expect(detail(() => expireAllowed(true, 'dev'))).toBe(
      'expire: only a trial key has an end; leave expire out for a dev key',
    );
    expect(detail(() => expire(seconds('2026-11-22T10:14:00Z'), 'trial', NOW))).toBe('expire: must be in the future');
    expect(detail(() => expire(seconds('9999-12-31T23:59:59-01:00'), 'trial', NOW))).toBe(
      'expire: must be no later than 9999-12-31T23:59:59Z',
    );
  });

  it('expire: a Date, or seconds with a fraction, to whole seconds; an invalid Date is refused', () => {
    const end = seconds('2026-12-31T23:59:59Z');
    expect(expire(new Date('2026-12-31T23:59:59.750Z'), 'trial', NOW)).toBe(end);
    expect(expire(end + 0.5, 'trial', NOW)).toBe(end);
    expect(detail(() => expire(new Date('tomorrow'), 'trial', NOW))).toBe('expire: expected a valid date and time');
    expect(detail(() => expire(Number.POSITIVE_INFINITY, 'trial', NOW))).toBe('expire: expected a valid date and time');
  });

  it('key: any spelling, normalised; core refusals name cle', () => {
    expect(key('gnz76-1vg7g 9dkmj')).toBe('GNZ761VG7G9DKMJ');
    expect(detail(() => key('---'))).toBe('cle: holds no letter or digit');
    expect(detail(() => key('A'.repeat(1025)))).toBe('cle: longer than 1024 characters');
  });

  it('transferDomain: hosts to registrable domains, with the field named in messages', () => {
    expect(transferDomain('from', 'https://www.boutique.exemple.fr:8443/panier')).toBe('exemple.fr');
    expect(transferDomain('to', 'dev.exemple.fr')).toBe('exemple.fr');
    expect(transferDomain('from', 'localhost')).toBe('localhost');
    expect(detail(() => transferDomain('to', 'localhost'))).toBe(
      'to: a test or staging host is never bound; give the real domain',
    );
    expect(detail(() => transferDomain('to', 'boutique.local'))).toBe(
      'to: a test or staging host is never bound; give the real domain',
    );
    // A hosting provider's staging host, whose registrable domain is not one.
    expect(detail(() => transferDomain('to', 'monsite.kinsta.cloud'))).toBe(
      'to: a test or staging host is never bound; give the real domain',
    );
    expect(detail(() => transferDomain('to', 'ftp://exemple.fr'))).toBe('to: scheme must be http or https, got ftp');
    expect(detail(() => transferDomain('from', 'co.uk'))).toBe(
      'from: host is a public suffix (co.uk) and names no site',
    );
  });

  it('transferDomain is idempotent: a domain it answered is answered again', () => {
    for (const host of [
      'https://www.boutique.exemple.fr:8443/panier',
      'LocalHost',
      'xn--mnchen-3ya.de',
      'münchen.de',
    ]) {
      const once = transferDomain('from', host);
      expect(transferDomain('from', once)).toBe(once);
    }
  });

  it("webhookUrl: the rules of webhooks/destination.ts as INVALID_FIELD, the parser's spelling kept", () => {
    expect(webhookUrl('https://Shop.Example/hook?x=1', false)).toBe('https://shop.example/hook?x=1');
    expect(detail(() => webhookUrl('http://10.0.0.5/', false))).toBe(
      'url: 10.0.0.5 is not a public address: private (RFC 1918) (non-public addresses only with LICENCE_WEBHOOK_ALLOW_PRIVATE=1)',
    );
    expect(webhookUrl('http://10.0.0.5/', true)).toBe('http://10.0.0.5/');
    expect(detail(() => webhookUrl('https://user:secret@shop.example/', true))).toBe(
      'url: must not hold a user name or password',
    );
  });

  it('webhookEvents: at least one known type, each once, in WEBHOOK_EVENT_TYPES order', () => {
    expect(webhookEvents(['verdict.refused', 'key.revoked', 'key.revoked', 'key.issued'])).toEqual([
      'key.issued',
      'key.revoked',
      'verdict.refused',
    ]);
    expect(detail(() => webhookEvents([]))).toBe('events: expected at least one event type');
    // The unknown name is cut to 40 characters.
    expect(detail(() => webhookEvents(['key.issued', 'x'.repeat(100)]))).toBe(
      `events: unknown event type "${'x'.repeat(40)}"; expected among "key.issued", "key.regenerated", "key.transferred", "key.revoked", "domain.bound", "verdict.refused"`,
    );
  });
});
