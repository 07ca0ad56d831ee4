import { readServiceConfig } from '@licence/service';
import { describe, expect, it } from 'vitest';
import { shellQuote, startupBanner } from './startup-banner.js';

/** What `licence serve` hands the banner for TRUST_PROXY and HOST: the service's notice (start-server.ts). */
function noticeOf(trustProxy: string, host: string) {
  const read = readServiceConfig({ TRUST_PROXY: trustProxy }, '/', { only: ['clientAddress'] });
  if (!read.ok) throw new Error(`TRUST_PROXY=${trustProxy} refused`);
  return read.value.clientAddress.notice(host);
}

describe('startupBanner', () => {
  const input = {
    url: 'http://127.0.0.1:8080',
    publicKey: 'zfIvxYpHHWyNUm+UCLNMFI6yRre04OpogXW9+a7zgsM=',
    dataDir: '/home/me/my data',
    cli: 'node /srv/cli.js',
    createdSigningKey: true,
    signingKeyFile: '/home/me/my data/signing-key',
    adminApi: false,
  };

  it('prints the URL, the public key and the commands that issue a first key on the same data folder', () => {
    const text = startupBanner(input);
    expect(text).toContain('listening on http://127.0.0.1:8080\n');
    expect(text).toContain(
      'public key (base64, give it to your products): zfIvxYpHHWyNUm+UCLNMFI6yRre04OpogXW9+a7zgsM=\n',
    );
    expect(text).toContain(`LICENCE_DATA_DIR='/home/me/my data' node /srv/cli.js product add my-product`);
    expect(text).toContain(
      `LICENCE_DATA_DIR='/home/me/my data' node /srv/cli.js key issue --produit my-product --kind buyer`,
    );
    expect(text).toContain('signing key created');
    expect(text).toContain('admin HTTP API: off');
    expect(text).not.toContain('console: ');
    expect(text).not.toContain('LICENCE_WEBHOOK_ALLOW_PRIVATE');
  });

  it('says when LICENCE_WEBHOOK_ALLOW_PRIVATE=1 lifts the webhook destination rules (docs/protocol.md#webhooks)', () => {
    const text = startupBanner({ ...input, webhookAllowPrivate: true });
    expect(text).toContain(
      'webhooks: LICENCE_WEBHOOK_ALLOW_PRIVATE=1: endpoints may use http and reach private, loopback and link-local addresses (for local receivers only)\n',
    );
    expect(startupBanner({ ...input, webhookAllowPrivate: false })).not.toContain('webhooks:');
  });

  it('lists the staging patterns of LICENCE_STAGING_HOSTS, when there are any (docs/protocol.md#staging-hosts)', () => {
    expect(startupBanner({ ...input, stagingHosts: ['*.recette.fr', 'preview-*.a.fr'] })).toContain(
      'staging hosts (LICENCE_STAGING_HOSTS, beyond the built-in ones): 2 pattern(s): *.recette.fr, preview-*.a.fr\n',
    );
    expect(startupBanner({ ...input, stagingHosts: [] })).not.toContain('staging hosts');
    expect(startupBanner(input)).not.toContain('staging hosts');
  });

  it('names the worker count when LICENCE_WORKERS runs more than one process (README "Workers")', () => {
    expect(startupBanner({ ...input, workers: 4 })).toContain(
      'listening on http://127.0.0.1:8080\npublic key (base64, give it to your products): zfIvxYpHHWyNUm+UCLNMFI6yRre04OpogXW9+a7zgsM=\nworkers: 4 processes (LICENCE_WORKERS)\n',
    );
    expect(startupBanner({ ...input, workers: 1 })).not.toContain('workers:');
    expect(startupBanner(input)).not.toContain('workers:');
  });

  it('says how TRUST_PROXY reads the client address, and warns on a hop count beyond loopback (docs/protocol.md#client-address)', () => {
    expect(startupBanner(input)).not.toContain('TRUST_PROXY');
    const hops = startupBanner({ ...input, trustProxyNotice: noticeOf('1', '127.0.0.1') });
    expect(hops).toContain(
      'client address (TRUST_PROXY=1, a hop count): the server must be reachable only through its proxies (1 in front of it)',
    );
    expect(hops).not.toContain('warning:');
    const exposed = startupBanner({ ...input, trustProxyNotice: noticeOf('1', '0.0.0.0') });
    expect(exposed).toMatch(
      /\nwarning: TRUST_PROXY=1 is a hop count and HOST=0\.0\.0\.0 is not a loopback address: .+ \(a CIDR list, e\.g\. TRUST_PROXY=10\.0\.0\.0\/8\)/,
    );
    const listed = startupBanner({ ...input, trustProxyNotice: noticeOf('10.0.0.0/8', '0.0.0.0') });
    expect(listed).toContain('client address (TRUST_PROXY): X-Forwarded-For is read only from 10.0.0.0/8;');
    expect(listed).not.toContain('warning:');
  });

  it('says the key is reused on a later start', () => {
    const text = startupBanner({ ...input, createdSigningKey: false, adminApi: true });
    expect(text).toContain('signing key: /home/me/my data/signing-key\n');
    expect(text).not.toContain('admin HTTP API: off');
    expect(text).toContain(
      "console: http://127.0.0.1:8080/console (sign in with LICENCE_ADMIN_TOKEN, or an author's token)\n",
    );
  });
});

describe('startupBanner on PostgreSQL', () => {
  it('names the database and gives the CLI commands with the same DATABASE_URL', () => {
    const text = startupBanner({
      url: 'http://127.0.0.1:8080',
      publicKey: 'zfIvxYpHHWyNUm+UCLNMFI6yRre04OpogXW9+a7zgsM=',
      dataDir: '/srv/data',
      cli: 'licence',
      createdSigningKey: false,
      signingKeyFile: undefined,
      adminApi: true,
      databaseUrl: 'postgres://licence:<password>@db:5432/licence',
    });
    expect(text).toContain('database: PostgreSQL (DATABASE_URL) postgres://licence:<password>@db:5432/licence\n');
    expect(text).toContain(
      `DATABASE_URL='postgres://licence:<password>@db:5432/licence' licence key issue --produit my-product --kind buyer`,
    );
    expect(text).not.toContain('LICENCE_DATA_DIR');
    expect(text).not.toContain('signing key');
  });
});

describe('shellQuote', () => {
  it('leaves plain words alone and single-quotes the rest', () => {
    expect(shellQuote('/srv/licence/data')).toBe('/srv/licence/data');
    expect(shellQuote('a b')).toBe("'a b'");
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote('')).toBe("''");
    expect(shellQuote('$HOME')).toBe("'$HOME'");
  });
});
