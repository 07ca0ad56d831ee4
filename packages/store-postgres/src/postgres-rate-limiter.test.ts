import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailability, startPostgres } from '@licence/pg-cluster';
import type { PostgresCluster } from '@licence/pg-cluster';
import { openPostgres } from './open-postgres.js';
import { createPostgresRateLimiter } from './postgres-rate-limiter.js';
import type { PostgresRateLimiter, PostgresRateLimiterOptions } from './postgres-rate-limiter.js';

// Skipped with one loud line without the binaries; in CI (CI=true) this rejects instead.
const { binDir } = await postgresAvailability('store-postgres rate limiter');
const available = binDir !== null;

let cluster: PostgresCluster | undefined;

beforeAll(async () => {
  if (available) cluster = await startPostgres({ binDir });
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

function theCluster(): PostgresCluster {
  if (cluster === undefined) throw new Error('the PostgreSQL cluster is not started');
  return cluster;
}

/** A limiter with its own pool on a fresh database (migrated by its first hit). */
async function freshLimiter(
  options: { limit?: number; windowMs?: number } = {},
): Promise<PostgresRateLimiter & { url: string }> {
  const url = await theCluster().createDatabase();
  const limiterOptions: PostgresRateLimiterOptions = { connectionString: url, ...options };
  return Object.assign(createPostgresRateLimiter(limiterOptions), { url });
}

async function rowCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Counted hits still kept, over every client (one row per client, its hits in an array).
    const result = await client.query<{ n: string }>(
      'SELECT coalesce(sum(cardinality(hits)), 0) AS n FROM rate_limit_windows',
    );
    return Number(result.rows[0]?.n);
  } finally {
    await client.end();
  }
}

// The behaviour tests of createMemoryRateLimiter (packages/service), on PostgreSQL.
describe.skipIf(!available)('createPostgresRateLimiter (docs/protocol.md#rate-limit)', () => {
  it('lets a new client send 30 at once and refuses the 31st', async () => {
    const limiter = await freshLimiter();
    try {
      for (let i = 0; i < 30; i += 1) expect(await limiter.hit('a', 1_000)).toEqual({ allowed: true, retryAfter: 0 });
      expect(await limiter.hit('a', 1_000)).toEqual({ allowed: false, retryAfter: 60 });
    } finally {
      await limiter.close();
    }
  });

  it('counts hits sent at once (batched statements) exactly: 20 + 20 for a client allow 30, in arrival order', async () => {
    const limiter = await freshLimiter();
    try {
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => limiter.hit(i % 2 === 0 ? 'a' : 'b', 1_000)),
      );
      const of = (parity: number) => answers.filter((_, i) => i % 2 === parity);
      expect(of(0).every((answer) => answer.allowed)).toBe(true);
      expect(of(1).every((answer) => answer.allowed)).toBe(true);
      const more = await Promise.all(Array.from({ length: 20 }, () => limiter.hit('a', 2_000)));
      expect(more.filter((answer) => answer.allowed)).toHaveLength(10);
      // Arrival order holds inside a batch: the first ten of the client's hits are the ones let in.
      expect(more.map((answer) => answer.allowed)).toEqual([
        ...Array<boolean>(10).fill(true),
        ...Array<boolean>(10).fill(false),
      ]);
      expect(more[19]).toEqual({ allowed: false, retryAfter: 59 });
      // 20 of b, 20 + 10 of a; refused hits are not counted.
      expect(await rowCount(limiter.url)).toBe(50);
    } finally {
      await limiter.close();
    }
  });

  it('is a sliding window: Retry-After counts down to when the oldest leaves', async () => {
    const limiter = await freshLimiter({ limit: 3, windowMs: 60_000 });
    try {
      await limiter.hit('a', 0);
      await limiter.hit('a', 20_000);
      await limiter.hit('a', 40_000);
      expect(await limiter.hit('a', 45_000)).toEqual({ allowed: false, retryAfter: 15 });
      expect(await limiter.hit('a', 59_999)).toEqual({ allowed: false, retryAfter: 1 });
      // At 60 s the first request leaves the window: one slot, not a whole new minute.
      expect(await limiter.hit('a', 60_000)).toEqual({ allowed: true, retryAfter: 0 });
      expect(await limiter.hit('a', 60_001)).toEqual({ allowed: false, retryAfter: 20 });
    } finally {
      await limiter.close();
    }
  });

  it('never says less than one second', async () => {
    const limiter = await freshLimiter({ limit: 1, windowMs: 1_000 });
    try {
      await limiter.hit('a', 0);
      expect(await limiter.hit('a', 999)).toEqual({ allowed: false, retryAfter: 1 });
    } finally {
      await limiter.close();
    }
  });

  it('does not count refused requests', async () => {
    const limiter = await freshLimiter({ limit: 2, windowMs: 10_000 });
    try {
      await limiter.hit('a', 0);
      await limiter.hit('a', 0);
      for (let i = 0; i < 50; i += 1) expect((await limiter.hit('a', 5_000)).allowed).toBe(false);
      expect(await rowCount(limiter.url)).toBe(2);
      expect((await limiter.hit('a', 10_000)).allowed).toBe(true);
    } finally {
      await limiter.close();
    }
  });

  it('counts each client apart', async () => {
    const limiter = await freshLimiter({ limit: 1 });
    try {
      expect((await limiter.hit('a', 0)).allowed).toBe(true);
      expect((await limiter.hit('b', 0)).allowed).toBe(true);
      expect((await limiter.hit('a', 0)).allowed).toBe(false);
    } finally {
      await limiter.close();
    }
  });

  it('sweeps the rows of clients whose window emptied, at most once per window, so the table stays bounded', async () => {
    const limiter = await freshLimiter({ limit: 5, windowMs: 1_000 });
    try {
      // The first hit starts a sweep (nothing to delete yet); the next ones, within the window, do not.
      for (let i = 0; i < 200; i += 1) await limiter.hit(`client-${i}`, 0);
      await limiter.settled();
      expect(await rowCount(limiter.url)).toBe(200);
      await limiter.hit('late', 1_000);
      await limiter.settled();
      expect(await rowCount(limiter.url)).toBe(1);
      // The explicit sweep: the late hit leaves at 2 s.
      expect(await limiter.sweep(1_999)).toBe(0);
      expect(await limiter.sweep(2_000)).toBe(1);
    } finally {
      await limiter.close();
    }
  });

  it('keeps working when the clock steps back', async () => {
    const limiter = await freshLimiter({ limit: 2, windowMs: 1_000 });
    try {
      await limiter.hit('a', 5_000);
      await limiter.hit('a', 4_000);
      expect((await limiter.hit('a', 4_500)).allowed).toBe(false);
      expect((await limiter.hit('a', 6_000)).allowed).toBe(true);
    } finally {
      await limiter.close();
    }
  });

  it('refuses nonsense options', () => {
    expect(() => createPostgresRateLimiter({ connectionString: 'postgres://127.0.0.1:1/x', limit: 0 })).toThrow(
      'limit: expected an integer >= 1, got 0',
    );
    expect(() => createPostgresRateLimiter({ connectionString: 'postgres://127.0.0.1:1/x', windowMs: 0.5 })).toThrow(
      'windowMs: expected an integer >= 1, got 0.5',
    );
  });

  it('shares one limit across pools: 40 hits of one client over two limiters, exactly 30 allowed', async () => {
    const url = await theCluster().createDatabase();
    const first = createPostgresRateLimiter({ connectionString: url });
    const second = createPostgresRateLimiter({ connectionString: url });
    try {
      // Both migrate the new database at once (the migration lock makes it once), then race.
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? first : second).hit('203.0.113.7', 1_000 + i)),
      );
      const allowed = results.filter((result) => result.allowed);
      expect(allowed).toHaveLength(30);
      for (const refused of results.filter((result) => !result.allowed))
        expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
      expect(await rowCount(url)).toBe(30);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('rejects while the database cannot be reached (the service answers a 5xx), and names no secret', async () => {
    const limiter = createPostgresRateLimiter({
      connectionString: 'postgres://licence:s3cret-pw@127.0.0.1:1/licence',
      poolOptions: { connectionTimeoutMs: 500 },
    });
    try {
      const error: unknown = await limiter.hit('a', 0).then(
        () => null,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(Error);
      expect(String(error)).not.toContain('s3cret-pw');
    } finally {
      await limiter.close();
    }
  });
});

describe.skipIf(!available)('openPostgres: the store and the rate limiter on one pool', () => {
  it('opens both on a fresh database, and closes once', async () => {
    const url = await theCluster().createDatabase();
    const backend = await openPostgres({ connectionString: url, rateLimit: { limit: 2 } });
    try {
      await backend.store.ping();
      expect(
        await backend.store.addProduct({ id: 'theme', author: 'alice', name: 'Theme', createdAt: 1, staging: [] }),
      ).toEqual({
        result: 'created',
        id: 'theme',
      });
      expect((await backend.rateLimiter.hit('a', 0)).allowed).toBe(true);
      expect((await backend.rateLimiter.hit('a', 0)).allowed).toBe(true);
      expect(await backend.rateLimiter.hit('a', 0)).toEqual({ allowed: false, retryAfter: 60 });
    } finally {
      await backend.close();
      await backend.close();
    }
    await expect(backend.store.ping()).rejects.toThrow();
  });

  it('rejects with one clear error when the server is not there, naming the database without the password', async () => {
    await expect(
      openPostgres({ connectionString: 'postgres://licence:s3cret-pw@127.0.0.1:1/licence' }),
    ).rejects.toThrow(/^postgres:\/\/127\.0\.0\.1:1\/licence: cannot open the PostgreSQL store: /);
  });
});
