import { describe, expect, it } from 'vitest';
import { issueKeyBody, localToIso } from './issue-key-body.js';

describe('localToIso', () => {
  it('reads a datetime-local value in the local time zone and writes UTC, whole seconds, with Z', () => {
    const iso = localToIso('2026-12-31T23:59');
    expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(new Date(iso ?? '').getTime()).toBe(new Date(2026, 11, 31, 23, 59).getTime());
    expect(new Date(localToIso('2026-06-01T08:30:15') ?? '').getTime()).toBe(new Date(2026, 5, 1, 8, 30, 15).getTime());
  });

  it('refuses what is no datetime-local value', () => {
    for (const value of ['', '2026-12-31', 'tomorrow', '2026-13-45T99:99', '2026-12-31T23:59Z']) {
      expect(localToIso(value)).toBeNull();
    }
  });
});

describe('issueKeyBody', () => {
  const form = { produit: 'p', sites: '', expire: '' };

  it('a buyer key: sites omitted when empty, a number when given', () => {
    expect(issueKeyBody({ ...form, kind: 'buyer' })).toEqual({ ok: true, body: { produit: 'p', kind: 'buyer' } });
    expect(issueKeyBody({ ...form, kind: 'buyer', sites: ' 3 ' })).toEqual({
      ok: true,
      body: { produit: 'p', kind: 'buyer', sites: 3 },
    });
  });

  it('sites must be a whole number from 1 to 1000', () => {
    for (const sites of ['0', '1001', '1.5', '-1', 'two', '1e2']) {
      expect(issueKeyBody({ ...form, kind: 'buyer', sites })).toEqual({ ok: false, field: 'sites' });
    }
    expect(issueKeyBody({ ...form, kind: 'buyer', sites: '1000' }).ok).toBe(true);
  });

  it('a trial key needs its end, sent as RFC 3339 UTC', () => {
    expect(issueKeyBody({ ...form, kind: 'trial' })).toEqual({ ok: false, field: 'expire' });
    const check = issueKeyBody({ ...form, kind: 'trial', sites: '2', expire: '2026-12-31T23:59' });
    expect(check.ok && check.body).toEqual({
      produit: 'p',
      kind: 'trial',
      sites: 2,
      expire: localToIso('2026-12-31T23:59'),
    });
  });

  it('a development key sends neither sites nor expire, whatever the hidden fields hold', () => {
    expect(issueKeyBody({ produit: 'p', kind: 'dev', sites: '5', expire: '2026-12-31T23:59' })).toEqual({
      ok: true,
      body: { produit: 'p', kind: 'dev' },
    });
  });
});
