import { describe, expect, it } from 'vitest';
import { configErrorLine } from '@licence/service';
import {
  connectionLimits,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_CONNECTIONS_PER_IP,
  DESCRIPTOR_RESERVE,
  FALLBACK_OPEN_FILES,
  parseOpenFileLimit,
  readOpenFileLimit,
} from './connection-limits.js';

const unset = {
  maxConnections: undefined,
  maxConnectionsPerIp: DEFAULT_MAX_CONNECTIONS_PER_IP,
  trustProxy: undefined,
  webhookConcurrency: 32,
};

describe('connectionLimits (docs/protocol.md#limits)', () => {
  it('defaults to 10,000 in all and 100 per address, the documented values', () => {
    expect([DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS_PER_IP, DESCRIPTOR_RESERVE]).toEqual([10_000, 100, 256]);
    expect(connectionLimits(unset, 65_536)).toEqual({
      ok: true,
      value: { maxConnections: 10_000, maxConnectionsPerIp: 100 },
    });
  });

  it('shrinks the default total below the open-file limit, keeping 256 descriptors and one per webhook attempt', () => {
    expect(connectionLimits(unset, 1024)).toEqual({
      ok: true,
      value: { maxConnections: 736, maxConnectionsPerIp: 100 },
    });
    // docs/protocol.md#limits: connections + attempts in flight + the reserve never exceed the limit.
    for (const webhookConcurrency of [1, 32, 500]) {
      const limits = connectionLimits({ ...unset, webhookConcurrency }, 1024);
      expect(limits.ok && limits.value.maxConnections + webhookConcurrency + DESCRIPTOR_RESERVE).toBe(1024);
    }
  });

  it('with a CIDR list, keeps the cap per address and names the proxies exempt from it', () => {
    // docs/protocol.md#limits: only the trusted proxies' sockets carry many clients; any other peer
    // reached the server directly and is capped as without a proxy.
    const cidrs = ['127.0.0.1/32', '10.0.0.0/8'];
    const limits = connectionLimits({ ...unset, maxConnectionsPerIp: 7, trustProxy: { cidrs } }, 65_536);
    expect(limits).toEqual({
      ok: true,
      value: { maxConnections: 10_000, maxConnectionsPerIp: 7, trustedProxies: cidrs },
    });
  });

  it('keeps a configured total that fits, and drops the cap per address with a hop count (every peer taken for a proxy)', () => {
    const limits = connectionLimits(
      { ...unset, maxConnections: 500, maxConnectionsPerIp: 7, trustProxy: { hops: 1 } },
      1024,
    );
    expect(limits).toEqual({ ok: true, value: { maxConnections: 500, maxConnectionsPerIp: undefined } });
  });

  it('refuses a configured total above the open-file limit minus the reserve and the attempts, naming LICENCE_MAX_CONNECTIONS', () => {
    expect(connectionLimits({ ...unset, maxConnections: 736 }, 1024).ok).toBe(true);
    const refused = connectionLimits({ ...unset, maxConnections: 737 }, 1024);
    expect(refused.ok ? [] : refused.errors.map(configErrorLine)).toEqual([
      'LICENCE_MAX_CONNECTIONS: 737 is above what this process may open: at most 736 (open-file limit 1024 minus 256 kept for the database and files and 32 for webhook attempts, LICENCE_WEBHOOK_CONCURRENCY); lower it or raise the limit (ulimit -n)',
    ]);
  });

  it('refuses webhook attempts that leave no connection, naming LICENCE_WEBHOOK_CONCURRENCY', () => {
    expect(connectionLimits({ ...unset, webhookConcurrency: 767 }, 1024).ok).toBe(true);
    const refused = connectionLimits({ ...unset, webhookConcurrency: 768 }, 1024);
    expect(refused.ok ? [] : refused.errors.map(configErrorLine)).toEqual([
      'LICENCE_WEBHOOK_CONCURRENCY: 768 webhook attempts leave no connection: the process may open only 1024 files, 256 of them kept for the database and files; lower it or raise the limit (ulimit -n)',
    ]);
  });

  it('refuses to start when the open-file limit leaves no room at all', () => {
    const refused = connectionLimits(unset, 200);
    expect(refused.ok ? [] : refused.errors.map((error) => error.variable)).toEqual(['LICENCE_MAX_CONNECTIONS']);
  });
});

describe('the open-file limit', () => {
  const limits = [
    'Limit                     Soft Limit           Hard Limit           Units     ',
    'Max cpu time              unlimited            unlimited            seconds   ',
    'Max open files            4096                 524288               files     ',
    'Max processes             63432                63432                processes ',
  ].join('\n');

  it('is the soft limit of the "Max open files" line', () => {
    expect(parseOpenFileLimit(limits)).toBe(4096);
    expect(parseOpenFileLimit(limits.replace('4096 ', 'unlimited'))).toBe(Number.POSITIVE_INFINITY);
    expect(parseOpenFileLimit('nothing here')).toBeUndefined();
  });

  it('falls back to 1024 when the file cannot be read or holds no such line', () => {
    expect(
      readOpenFileLimit(() => {
        throw Object.assign(new Error('no /proc'), { code: 'ENOENT' });
      }),
    ).toBe(FALLBACK_OPEN_FILES);
    expect(readOpenFileLimit(() => 'garbage')).toBe(1024);
    expect(readOpenFileLimit(() => limits)).toBe(4096);
  });

  it("reads this process's limit on Linux", () => {
    expect(readOpenFileLimit()).toBeGreaterThan(0);
  });
});
