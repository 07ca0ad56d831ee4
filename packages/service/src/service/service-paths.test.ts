import { describe, expect, it } from 'vitest';
import { MAX_ADMIN_BODY_BYTES, MAX_BODY_BYTES } from '../http/index.js';
import { bodyLimitFor, isServicePath } from './service-paths.js';

describe('isServicePath', () => {
  it('claims the service paths only', () => {
    for (const path of [
      '/api/licence',
      '/api/license',
      '/healthz',
      '/admin',
      '/admin/keys',
      '/console',
      '/console/a.js',
      '/buyer',
      '/buyer/buyer.css',
      '/buyer/token/transfer',
    ])
      expect(isServicePath(path)).toBe(true);
    for (const path of ['/', '/api', '/api/other', '/administrator', '/healthz/x', '/consoles', '/buyers'])
      expect(isServicePath(path)).toBe(false);
  });

  it('leaves /favicon.ico to a bigger app, whose site icon it is (docs/protocol.md#favicon)', () => {
    expect(isServicePath('/favicon.ico')).toBe(false);
  });
});

describe('bodyLimitFor', () => {
  it('caps the public endpoint at 8 KiB and the admin API at 64 KiB (docs/protocol.md#limits)', () => {
    expect(MAX_BODY_BYTES).toBe(8192);
    expect(MAX_ADMIN_BODY_BYTES).toBe(65536);
    expect(bodyLimitFor('/api/licence')).toBe(8192);
    expect(bodyLimitFor('/api/license')).toBe(8192);
    expect(bodyLimitFor('/healthz')).toBe(8192);
    expect(bodyLimitFor('/admin')).toBe(65536);
    expect(bodyLimitFor('/admin/keys')).toBe(65536);
    expect(bodyLimitFor('/administrator')).toBe(8192);
    expect(bodyLimitFor('/buyer/token/transfer')).toBe(8192);
  });
});
