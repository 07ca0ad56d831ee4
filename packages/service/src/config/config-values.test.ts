import { describe, expect, it } from 'vitest';
import {
  decodeSeed,
  isPostgresUrl,
  logLevelOrInfo,
  adminTokenFault,
  parseAdminToken,
  parseDatabaseUrl,
  parseLogLevel,
  parseStagingHosts,
  parseWebhookAllowPrivate,
  parseWebhookConcurrency,
  parseWebhooksPerAuthor,
} from './config-values.js';
import { configErrorLine } from './parsed.js';

describe('config values (docs/protocol.md#configuration)', () => {
  it('reads LOG_LEVEL with info as the default, and names the variable when wrong', () => {
    expect(parseLogLevel(undefined)).toEqual({ ok: true, value: 'info' });
    expect(parseLogLevel('  ')).toEqual({ ok: true, value: 'info' });
    expect(parseLogLevel(' DEBUG ')).toEqual({ ok: true, value: 'debug' });
    expect(parseLogLevel('loud')).toEqual({
      ok: false,
      errors: [
        {
          variable: 'LOG_LEVEL',
          message: 'expected one of fatal, error, warn, info, debug, trace, silent, got "loud"',
        },
      ],
    });
    expect([logLevelOrInfo(' WARN'), logLevelOrInfo('loud'), logLevelOrInfo(undefined)]).toEqual([
      'warn',
      'info',
      'info',
    ]);
  });

  it('decodes a 32-byte seed, and explains a wrong one without showing it', () => {
    const seed = decodeSeed(Buffer.alloc(32, 7).toString('base64'), 'LICENCE_SIGNING_KEY');
    expect(seed.ok && seed.value).toBeInstanceOf(Uint8Array);
    const short = decodeSeed(Buffer.alloc(16, 7).toString('base64'), 'LICENCE_SIGNING_KEY');
    expect(short.ok).toBe(false);
    const lines = short.ok ? [] : short.errors.map(configErrorLine);
    expect(lines).toEqual([expect.stringMatching(/^LICENCE_SIGNING_KEY: .*32.*licence keygen/)]);
    expect(lines.join('\n')).not.toContain(Buffer.alloc(16, 7).toString('base64'));
  });

  it('accepts only postgres: and postgresql: URLs', () => {
    expect(isPostgresUrl('postgres://u:p@db:5432/licence')).toBe(true);
    expect(isPostgresUrl('postgresql:///licence')).toBe(true);
    expect(isPostgresUrl('mysql://db/licence')).toBe(false);
    expect(isPostgresUrl('not a url')).toBe(false);
  });

  it('reads DATABASE_URL and LICENCE_ADMIN_TOKEN, never showing either value', () => {
    expect(parseDatabaseUrl(undefined)).toEqual({ ok: true, value: undefined });
    expect(parseDatabaseUrl('postgres://db/licence')).toEqual({ ok: true, value: 'postgres://db/licence' });
    expect(parseDatabaseUrl('mysql://u:hunter2@db/x')).toEqual({
      ok: false,
      errors: [{ variable: 'DATABASE_URL', message: 'expected a postgres:// or postgresql:// URL (value not shown)' }],
    });
    expect(parseAdminToken(undefined)).toEqual({ ok: true, value: undefined });
    expect(parseAdminToken('short-secret')).toEqual({
      ok: false,
      errors: [
        {
          variable: 'LICENCE_ADMIN_TOKEN',
          message: 'must be at least 32 characters, got 12 (value not shown; `pnpm licence token` makes one)',
        },
      ],
    });
  });
});

describe('the admin token rule (docs/protocol.md#administration)', () => {
  const GOOD = 'Zq3-vT8_xW1.pK5~nB7+mR2/hJ4LdF6s';

  it.each([
    ['a base64url token (what `licence token` prints)', 'y2Yq7mAr1K3l6JtZP0wGxS9VcN4bE8uQdH5fRiUoLzI'],
    ['`openssl rand -hex 32`', '3f9a0c7b51e24d8696af0e3b7c2d415a8e9f60b1c3d2e5f4a7b6c9d8e1f0a2b3'],
    ['`openssl rand -base64 32`, with its padding', 'mY3k+Q0vZ/8tR5wPq2nL7sXc1bH9dGf4jE6aU0oIzKc='],
    ['every character RFC 6750 allows', GOOD],
  ])('accepts %s', (_name, token) => {
    expect(adminTokenFault(token)).toBeNull();
    expect(parseAdminToken(token)).toEqual({ ok: true, value: token });
  });

  it.each([
    [
      'a space inside',
      `${GOOD.slice(0, 16)} ${GOOD.slice(16)}`,
      'holds white space, which an Authorization: Bearer header cannot carry',
    ],
    ['a tab inside', `${GOOD}\t${GOOD}`, 'holds white space, which an Authorization: Bearer header cannot carry'],
    [
      'a character a Bearer token cannot hold',
      `${GOOD}!`,
      'may hold only letters, digits, - . _ ~ + / and a trailing =, as a Bearer token (RFC 6750 2.1)',
    ],
    [
      'an = that is not at the end',
      `${GOOD}=x`,
      'may hold only letters, digits, - . _ ~ + / and a trailing =, as a Bearer token (RFC 6750 2.1)',
    ],
    [
      'a non-ASCII letter',
      `${GOOD}é`,
      'may hold only letters, digits, - . _ ~ + / and a trailing =, as a Bearer token (RFC 6750 2.1)',
    ],
    ['31 characters', GOOD.slice(1), 'must be at least 32 characters, got 31'],
    [
      'one character repeated',
      'a'.repeat(64),
      'must hold at least 10 different characters, got 1: too repetitive to be a secret',
    ],
    [
      'a short cycle',
      'abc123'.repeat(8),
      'must hold at least 10 different characters, got 6: too repetitive to be a secret',
    ],
    [
      'nine different characters',
      '123456789'.repeat(4),
      'must hold at least 10 different characters, got 9: too repetitive to be a secret',
    ],
  ])('refuses %s, with its own message and never the value', (_name, token, fault) => {
    expect(adminTokenFault(token)).toBe(fault);
    const reading = parseAdminToken(token);
    expect(reading).toEqual({
      ok: false,
      errors: [
        { variable: 'LICENCE_ADMIN_TOKEN', message: `${fault} (value not shown; \`pnpm licence token\` makes one)` },
      ],
    });
    expect(JSON.stringify(reading)).not.toContain(token);
  });

  it('takes ten different characters as enough', () => {
    expect(adminTokenFault('1234567890'.repeat(4))).toBeNull();
  });
});

describe('LICENCE_WEBHOOK_ALLOW_PRIVATE (docs/protocol.md#webhooks)', () => {
  it('is on for exactly 1, off for 0 or unset, and refuses any other spelling by name', () => {
    expect(parseWebhookAllowPrivate('1')).toEqual({ ok: true, value: true });
    expect(parseWebhookAllowPrivate('0')).toEqual({ ok: true, value: false });
    expect(parseWebhookAllowPrivate(undefined)).toEqual({ ok: true, value: false });
    for (const raw of ['yes', 'true', 'on', '01']) {
      expect(parseWebhookAllowPrivate(raw)).toEqual({
        ok: false,
        errors: [{ variable: 'LICENCE_WEBHOOK_ALLOW_PRIVATE', message: `expected 1 (on) or 0 (off), got "${raw}"` }],
      });
    }
  });
});

describe('LICENCE_WEBHOOKS_PER_AUTHOR and LICENCE_WEBHOOK_CONCURRENCY (docs/protocol.md#configuration)', () => {
  it('default to 10 and 32, and take whole numbers in their ranges', () => {
    expect(parseWebhooksPerAuthor(undefined)).toEqual({ ok: true, value: 10 });
    expect(parseWebhookConcurrency(undefined)).toEqual({ ok: true, value: 32 });
    expect([parseWebhooksPerAuthor('0'), parseWebhooksPerAuthor('1000')]).toEqual([
      { ok: true, value: 0 },
      { ok: true, value: 1000 },
    ]);
    expect([parseWebhookConcurrency('1'), parseWebhookConcurrency('1000')]).toEqual([
      { ok: true, value: 1 },
      { ok: true, value: 1000 },
    ]);
  });

  it('refuse anything else with one line naming the variable and the range', () => {
    for (const raw of ['1001', '-1', '1.5', '1e2', 'ten', '0x10']) {
      expect(parseWebhooksPerAuthor(raw)).toEqual({
        ok: false,
        errors: [
          { variable: 'LICENCE_WEBHOOKS_PER_AUTHOR', message: `expected an integer from 0 to 1000, got "${raw}"` },
        ],
      });
    }
    for (const raw of ['0', '1001', '-4', '2.0', 'many']) {
      expect(parseWebhookConcurrency(raw)).toEqual({
        ok: false,
        errors: [
          { variable: 'LICENCE_WEBHOOK_CONCURRENCY', message: `expected an integer from 1 to 1000, got "${raw}"` },
        ],
      });
    }
  });
});

describe('LICENCE_STAGING_HOSTS (docs/protocol.md#staging-hosts)', () => {
  it("is none when unset, else core's reading of the comma list: normalised patterns", () => {
    expect(parseStagingHosts(undefined)).toEqual({ ok: true, value: [] });
    expect(parseStagingHosts('*.Preprod.Exemple.fr., recette-*.exemple.net')).toEqual({
      ok: true,
      value: ['*.preprod.exemple.fr', 'recette-*.exemple.net'],
    });
  });

  it('refuses a bad pattern in one line naming the variable, without repeating it', () => {
    const result = parseStagingHosts('*.preprod.exemple.fr, exemple.*');
    if (result.ok) throw new Error('expected a fault');
    expect(result.errors).toHaveLength(1);
    const line = configErrorLine(result.errors[0] ?? { variable: '', message: '' });
    expect(line).toMatch(/^LICENCE_STAGING_HOSTS: ./);
    expect(line).not.toMatch(/^LICENCE_STAGING_HOSTS: LICENCE_STAGING_HOSTS/);
    expect(line).not.toContain('\n');
  });
});
