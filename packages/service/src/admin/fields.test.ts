import { describe, expect, it } from 'vitest';
import { invalidField } from '../../test/invalid-field.js';
import {
  activityDays,
  adminBody,
  authorInput,
  expire,
  issueKeyInput,
  kind,
  optionalString,
  productChangeInput,
  productInput,
  requiredString,
  revokeInput,
  sites,
  staging,
  tokenInput,
  transferInput,
  webhookEvents,
  webhookInput,
} from './fields.js';

const detail = invalidField;

describe('admin fields: JSON bodies to typed inputs', () => {
  it('adminBody: absent is empty, an object passes, anything else is refused', () => {
    expect(adminBody(undefined)).toEqual({});
    expect(adminBody({ a: 1 })).toEqual({ a: 1 });
    expect(detail(() => adminBody([1]))).toBe('body: expected a JSON object');
  });

  it('required and optional strings', () => {
    expect(requiredString('id', 'p')).toBe('p');
    expect(detail(() => requiredString('id', undefined))).toBe('id: is required');
    expect(detail(() => requiredString('name', null))).toBe('name: is required');
    expect(detail(() => requiredString('id', 3))).toBe('id: expected a string');
    expect(optionalString('from', undefined)).toBeUndefined();
    expect(optionalString('from', null)).toBeUndefined();
    expect(detail(() => optionalString('from', 5))).toBe('from: expected a string');
  });

  it('kind', () => {
    expect(kind('trial')).toBe('trial');
    expect(detail(() => kind('gold'))).toBe('kind: expected one of "buyer", "trial", "dev"');
    expect(detail(() => kind(undefined))).toBe('kind: is required');
  });

  it('sites: a number for the rule, undefined when absent', () => {
    expect(sites(undefined, 'buyer')).toBeUndefined();
    expect(sites(null, 'dev')).toBeUndefined();
    expect(sites(5, 'trial')).toBe(5);
    expect(detail(() => sites('2', 'buyer'))).toBe('sites: expected an integer from 1 to 1000');
    expect(detail(() => sites(0, 'buyer'))).toBe('sites: expected an integer from 1 to 1000');
    expect(detail(() => sites('2', 'dev'))).toBe('sites: a dev key binds no domain; leave sites out');
  });

  it('expire: an ISO 8601 date-time with a zone, for a trial only', () => {
    expect(expire('2026-12-31T23:59:59Z', 'trial')).toBe(Date.parse('2026-12-31T23:59:59Z') / 1000);
    expect(expire(undefined, 'buyer')).toBeUndefined();
    expect(detail(() => expire(undefined, 'trial'))).toBe('expire: is required for a trial key');
    expect(detail(() => expire('2026-12-31T23:59:59Z', 'buyer'))).toBe(
      'expire: only a trial key has an end; leave expire out for a buyer key',
    );
    expect(detail(() => expire('2026-12-31', 'trial'))).toBe(
      'expire: expected an ISO 8601 date-time with a time zone, such as 2026-12-31T23:59:59Z',
    );
    expect(detail(() => expire(1798761599, 'trial'))).toBe('expire: expected a string');
    // The kind's rule comes before the type: a buyer key with any expire is told to leave it out.
    expect(detail(() => expire(1798761599, 'buyer'))).toBe(
      'expire: only a trial key has an end; leave expire out for a buyer key',
    );
  });

  it('productInput: the fields in order, each its type then its rule', () => {
    expect(productInput({ id: 'theme', author: ' alice ', name: 'Thème' })).toEqual({
      id: 'theme',
      author: 'alice',
      name: 'Thème',
    });
    expect(detail(() => productInput(undefined))).toBe('id: is required');
    expect(detail(() => productInput({ id: 'Mon Theme', author: 5 }))).toBe(
      'id: expected 1 to 64 characters among a-z, 0-9, ".", "_" and "-"',
    );
    expect(detail(() => productInput({ id: 'p', author: '', name: 5 }))).toBe('author: is empty');
    // docs/protocol.md#authors: an author token may leave `author` out (the operation decides).
    expect(productInput({ id: 'p', name: 'P' })).toEqual({ id: 'p', author: undefined, name: 'P' });
    expect(productInput({ id: 'p', author: null, name: 'P' })).toEqual({ id: 'p', author: undefined, name: 'P' });
    expect(detail(() => productInput({ id: 'p', author: 5, name: 'P' }))).toBe('author: expected a string');
  });

  it('staging (docs/protocol.md#staging-hosts): an array of strings, each normalised by core, each once', () => {
    expect(staging(undefined)).toBeUndefined();
    expect(staging(null)).toBeUndefined();
    expect(staging([])).toEqual([]);
    expect(staging([' *.FlywheelStaging.com. ', 'staging-*.kinsta.cloud', '*.flywheelstaging.com'])).toEqual([
      '*.flywheelstaging.com',
      'staging-*.kinsta.cloud',
    ]);
    expect(detail(() => staging('*.kinsta.cloud'))).toBe('staging: expected an array of host name patterns');
    expect(detail(() => staging({ 0: '*.kinsta.cloud' }))).toBe('staging: expected an array of host name patterns');
    expect(detail(() => staging(['*.kinsta.cloud', 42]))).toBe('staging: expected an array of strings');
    // The pattern's own rule is core's (parseStagingPatterns), its message under this field's name.
    expect(detail(() => staging(['kinsta.*']))).toBe('staging: "kinsta.*" has a "*" outside its leftmost label');
    expect(detail(() => staging(['*.fr']))).toBe('staging: "*.fr" needs at least two labels after the wildcard label');
    expect(detail(() => staging(Array.from({ length: 51 }, (_, index) => `s${index}.exemple.fr`)))).toBe(
      'staging: at most 50 patterns, got 51',
    );
  });

  it('productInput: staging optional, after name', () => {
    expect(productInput({ id: 'p', author: 'a', name: 'P', staging: ['*.Recette.fr'] })).toEqual({
      id: 'p',
      author: 'a',
      name: 'P',
      staging: ['*.recette.fr'],
    });
    expect(productInput({ id: 'p', author: 'a', name: 'P', staging: null }).staging).toBeUndefined();
    expect(detail(() => productInput({ id: 'p', author: 'a', staging: 'x' }))).toBe('name: is required');
    expect(detail(() => productInput({ id: 'p', author: 'a', name: 'P', staging: 'x' }))).toBe(
      'staging: expected an array of host name patterns',
    );
  });

  it('productChangeInput (PATCH /admin/products/:id): name, staging, at least one; null is not given', () => {
    expect(productChangeInput({ name: ' Thème ' })).toEqual({ name: 'Thème', staging: undefined });
    expect(productChangeInput({ staging: [] })).toEqual({ name: undefined, staging: [] });
    expect(productChangeInput({ name: 'T', staging: ['*.recette.fr'], other: 1 })).toEqual({
      name: 'T',
      staging: ['*.recette.fr'],
    });
    for (const body of [undefined, {}, { name: null, staging: null }, { other: 'x' }]) {
      expect(detail(() => productChangeInput(body))).toBe('body: expected at least one of name, staging');
    }
    expect(detail(() => productChangeInput([]))).toBe('body: expected a JSON object');
    expect(detail(() => productChangeInput({ name: 5, staging: 'x' }))).toBe('name: expected a string');
    expect(detail(() => productChangeInput({ name: ' ' }))).toBe('name: is empty');
    expect(detail(() => productChangeInput({ staging: [null] }))).toBe('staging: expected an array of strings');
  });

  it('authorInput (docs/protocol.md#authors): id and name, each the rule of a product author', () => {
    expect(authorInput({ id: ' alice ', name: ' Alice ' })).toEqual({ id: 'alice', name: 'Alice' });
    expect(detail(() => authorInput({ name: 'Alice' }))).toBe('id: is required');
    expect(detail(() => authorInput({ id: 'a\nb', name: 'Alice' }))).toBe('id: must not hold control characters');
    expect(detail(() => authorInput({ id: 'alice' }))).toBe('name: is required');
    expect(detail(() => authorInput({ id: 'x'.repeat(201), name: 'A' }))).toBe(
      'id: expected at most 200 characters, got 201',
    );
  });

  it('tokenInput: an optional label, trimmed, blank is none', () => {
    expect(tokenInput(undefined)).toEqual({ label: undefined });
    expect(tokenInput({ label: null })).toEqual({ label: undefined });
    expect(tokenInput({ label: '  ' })).toEqual({ label: undefined });
    expect(tokenInput({ label: ' shop ' })).toEqual({ label: 'shop' });
    expect(detail(() => tokenInput({ label: 3 }))).toBe('label: expected a string');
    expect(detail(() => tokenInput({ label: 'x'.repeat(101) }))).toBe(
      'label: expected at most 100 characters, got 101',
    );
  });

  it('activityDays (docs/protocol.md#activity): once, digits, 1 to 366; other parameters ignored', () => {
    expect(activityDays(undefined)).toBeUndefined();
    expect(activityDays('')).toBeUndefined();
    expect(activityDays('other=1')).toBeUndefined();
    expect(activityDays('days=90')).toBe(90);
    expect(activityDays('x=y&days=366&z')).toBe(366);
    expect(activityDays('days=007')).toBe(7);
    for (const query of ['days=0', 'days=367', 'days=', 'days=1.5', 'days=1e2', 'days=%207', 'days=-1', 'days=abc']) {
      expect(detail(() => activityDays(query))).toBe('days: expected an integer from 1 to 366');
    }
    expect(detail(() => activityDays('days=30&days=30'))).toBe('days: expected once, got 2 times');
  });

  it('issueKeyInput', () => {
    expect(issueKeyInput({ produit: 'p', kind: 'trial', sites: 2, expire: '2026-12-31T23:59:59Z' })).toEqual({
      produit: 'p',
      kind: 'trial',
      sites: 2,
      expire: Date.parse('2026-12-31T23:59:59Z') / 1000,
    });
    expect(issueKeyInput({ produit: 'p', kind: 'dev', sites: null })).toEqual({
      produit: 'p',
      kind: 'dev',
      sites: undefined,
      expire: undefined,
    });
    expect(detail(() => issueKeyInput({ produit: 'P', kind: 'gold' }))).toBe(
      'produit: expected 1 to 64 characters among a-z, 0-9, ".", "_" and "-"',
    );
    expect(detail(() => issueKeyInput({ produit: 'p', kind: 'buyer', sites: 0, expire: 'x' }))).toBe(
      'sites: expected an integer from 1 to 1000',
    );
  });

  it('transferInput: hosts to registrable domains', () => {
    expect(transferInput(undefined)).toEqual({ from: undefined, to: undefined });
    expect(transferInput({ from: 'www.a.fr', to: 'https://shop.b.fr/x' })).toEqual({ from: 'a.fr', to: 'b.fr' });
    expect(detail(() => transferInput({ from: 5 }))).toBe('from: expected a string');
    expect(detail(() => transferInput({ from: 'co.uk', to: 5 }))).toBe(
      'from: host is a public suffix (co.uk) and names no site',
    );
    expect(detail(() => transferInput({ to: 'localhost' }))).toBe(
      'to: a test or staging host is never bound; give the real domain',
    );
  });

  it('revokeInput: an optional reason, trimmed, at most 1000 characters', () => {
    expect(revokeInput(undefined)).toEqual({ reason: undefined });
    expect(revokeInput({ reason: null })).toEqual({ reason: undefined });
    expect(revokeInput({ reason: ' fraud ' })).toEqual({ reason: 'fraud' });
    expect(detail(() => revokeInput({ reason: 5 }))).toBe('reason: expected a string');
    expect(detail(() => revokeInput({ reason: 'x'.repeat(1001) }))).toBe(
      'reason: expected at most 1000 characters, got 1001',
    );
  });

  it('webhookInput: url a string (judged by the operation), events a list of known types, author optional', () => {
    const url = 'https://shop.example/hook';
    expect(webhookInput({ url, events: ['verdict.refused', 'key.issued', 'verdict.refused'] })).toEqual({
      url,
      events: ['key.issued', 'verdict.refused'],
      author: undefined,
    });
    expect(webhookInput({ url, events: ['key.issued'], author: ' alice ' })).toMatchObject({ author: 'alice' });
    expect(webhookInput({ url, events: ['key.issued'], author: null })).toMatchObject({ author: undefined });
    expect(detail(() => webhookInput(undefined))).toBe('url: is required');
    expect(detail(() => webhookInput({ url: ['x'] }))).toBe('url: expected a string');
    expect(detail(() => webhookInput({ url }))).toBe('events: is required');
    expect(detail(() => webhookInput({ url, events: ['key.issued'], author: 3 }))).toBe('author: expected a string');
  });

  it('webhookEvents: an array of strings, at least one, each a known type', () => {
    expect(webhookEvents(['domain.bound', 'key.issued'])).toEqual(['key.issued', 'domain.bound']);
    expect(detail(() => webhookEvents({ 0: 'key.issued' }))).toBe('events: expected an array of event types');
    expect(detail(() => webhookEvents('key.issued'))).toBe('events: expected an array of event types');
    expect(detail(() => webhookEvents([]))).toBe('events: expected at least one event type');
    expect(detail(() => webhookEvents(['key.issued', null]))).toBe('events: expected an array of strings');
    expect(detail(() => webhookEvents(['KEY.ISSUED']))).toMatch(
      /^events: unknown event type "KEY.ISSUED"; expected among/,
    );
  });
});
