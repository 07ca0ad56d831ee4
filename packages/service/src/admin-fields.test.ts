import { describe, expect, it } from 'vitest';
import {
  adminBody,
  expire,
  kind,
  optionalText,
  parseDateTime,
  sites,
  slug,
  text,
  transferDomain,
} from './admin-fields.js';
import { HttpError } from './problem.js';

const detail = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError && error.status === 400) return error.detail;
    throw error;
  }
  throw new Error('expected a 400');
};

const NOW = Date.parse('2026-11-22T10:14:00Z') / 1000;

describe('admin fields', () => {
  it('adminBody: absent is empty, an object passes, anything else is a 400', () => {
    expect(adminBody(undefined)).toEqual({});
    expect(adminBody({ a: 1 })).toEqual({ a: 1 });
    expect(detail(() => adminBody([1]))).toBe('body: expected a JSON object');
  });

  it('slug', () => {
    expect(slug('id', 'mon-theme.v2_x')).toBe('mon-theme.v2_x');
    expect(detail(() => slug('id', undefined))).toBe('id: is required');
    expect(detail(() => slug('id', 3))).toBe('id: expected a string');
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
    expect(detail(() => text('name', null))).toBe('name: is required');
    expect(detail(() => text('name', 'x'.repeat(201)))).toBe('name: expected at most 200 characters, got 201');
    expect(detail(() => text('name', 'a\nb'))).toBe('name: must not hold control characters');
    expect(optionalText('reason', undefined, 10)).toBeNull();
    expect(optionalText('reason', 'fraud', 10)).toBe('fraud');
  });

  it('kind', () => {
    expect(kind('trial')).toBe('trial');
    expect(detail(() => kind('gold'))).toBe('kind: expected one of "buyer", "trial", "dev"');
    expect(detail(() => kind(undefined))).toBe('kind: is required');
  });

  it('sites', () => {
    expect(sites(undefined, 'buyer')).toBe(1);
    expect(sites(5, 'trial')).toBe(5);
    expect(sites(undefined, 'dev')).toBe(0);
    expect(detail(() => sites(0, 'buyer'))).toBe('sites: expected an integer from 1 to 1000');
    expect(detail(() => sites(1001, 'buyer'))).toBe('sites: expected an integer from 1 to 1000');
    expect(detail(() => sites(1.5, 'buyer'))).toBe('sites: expected an integer from 1 to 1000');
    expect(detail(() => sites('2', 'buyer'))).toBe('sites: expected an integer from 1 to 1000');
    expect(detail(() => sites(2, 'dev'))).toBe('sites: a dev key binds no domain; leave sites out');
  });

  it('parseDateTime reads RFC 3339 date-times with a zone', () => {
    expect(parseDateTime('2026-12-31T23:59:59Z')).toBe(Date.parse('2026-12-31T23:59:59Z') / 1000);
    expect(parseDateTime('2026-12-31T23:59Z')).toBe(Date.parse('2026-12-31T23:59:00Z') / 1000);
    expect(parseDateTime('2026-12-31T23:59:59.999Z')).toBe(Date.parse('2026-12-31T23:59:59Z') / 1000);
    expect(parseDateTime('2027-01-01T01:00:00+02:00')).toBe(Date.parse('2026-12-31T23:00:00Z') / 1000);
    expect(parseDateTime('2026-12-31t23:00:00-01:30')).toBe(Date.parse('2027-01-01T00:30:00Z') / 1000);
    // Years 0 to 99 are themselves, not 1900 to 1999 (Date.UTC's trap).
    expect(parseDateTime('0050-01-01T00:00:00Z')).toBe(Date.parse('0050-01-01T00:00:00Z') / 1000);
    for (const bad of [
      '2026-12-31',
      '2026-12-31T23:59:59',
      '2026-02-30T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-12-31T24:00:00Z',
      'tomorrow',
      '2026-12-31T23:59:60Z',
      '2026-12-31T23:00:00+24:00',
    ]) {
      expect(parseDateTime(bad)).toBeNull();
    }
  });

  it('expire: required for a trial, refused for other kinds, in the future', () => {
    expect(expire('2026-12-31T23:59:59Z', 'trial', NOW)).toBe(Date.parse('2026-12-31T23:59:59Z') / 1000);
    expect(expire(undefined, 'buyer', NOW)).toBeNull();
    expect(detail(() => expire(undefined, 'trial', NOW))).toBe('expire: is required for a trial key');
    expect(detail(() => expire('2026-12-31T23:59:59Z', 'buyer', NOW))).toBe(
      'expire: only a trial key has an end; leave expire out for a buyer key',
    );
    expect(detail(() => expire('2026-11-22T10:14:00Z', 'trial', NOW))).toBe('expire: must be in the future');
    expect(detail(() => expire('2026-12-31', 'trial', NOW))).toBe(
      'expire: expected an ISO 8601 date-time with a time zone, such as 2026-12-31T23:59:59Z',
    );
    expect(detail(() => expire(1798761599, 'trial', NOW))).toBe('expire: expected a string');
    expect(detail(() => expire('9999-12-31T23:59:59-01:00', 'trial', NOW))).toBe(
      'expire: must be no later than 9999-12-31T23:59:59Z',
    );
  });

  it('transferDomain: hosts to registrable domains, with the field named in messages', () => {
    expect(transferDomain('from', 'https://www.boutique.exemple.fr:8443/panier')).toBe('exemple.fr');
    expect(transferDomain('to', 'dev.exemple.fr')).toBe('exemple.fr');
    expect(transferDomain('to', undefined)).toBeNull();
    expect(transferDomain('from', 'localhost')).toBe('localhost');
    expect(detail(() => transferDomain('to', 'localhost'))).toBe(
      'to: a test or staging host is never bound; give the real domain',
    );
    expect(detail(() => transferDomain('to', 'boutique.local'))).toBe(
      'to: a test or staging host is never bound; give the real domain',
    );
    expect(detail(() => transferDomain('to', 'ftp://exemple.fr'))).toBe('to: scheme must be http or https, got ftp');
    expect(detail(() => transferDomain('from', 'co.uk'))).toBe(
      'from: host is a public suffix (co.uk) and names no site',
    );
    expect(detail(() => transferDomain('from', 5))).toBe('from: expected a string');
  });
});
