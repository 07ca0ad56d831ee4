import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheFileName, ensureCacheDir, MAX_CACHE_BYTES, readCacheFile, writeCacheFile } from './cache-file.js';

const KEY = 'ABCDEFGHJKMNPQRSTVWXYZ012';
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'licence-cache-file-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('cacheFileName', () => {
  it('is the SHA-256 of (product, key, host): stable, and never the key', async () => {
    const name = await cacheFileName('mon-theme', KEY, 'exemple.fr');
    expect(name).toMatch(/^licence-[0-9a-f]{64}\.json$/);
    expect(await cacheFileName('mon-theme', KEY, 'exemple.fr')).toBe(name);
    expect(name.toUpperCase()).not.toContain(KEY.slice(-4));
    // The digest of the JSON array ["mon-theme", key, "exemple.fr"], checked with node:crypto.
    const digest = createHash('sha256')
      .update(JSON.stringify(['mon-theme', KEY, 'exemple.fr']))
      .digest('hex');
    expect(name).toBe(`licence-${digest}.json`);
  });

  it('differs when any of the three differs, and keeps them apart', async () => {
    const names = new Set([
      await cacheFileName('mon-theme', KEY, 'exemple.fr'),
      await cacheFileName('autre', KEY, 'exemple.fr'),
      await cacheFileName('mon-theme', `${KEY.slice(0, -1)}3`, 'exemple.fr'),
      await cacheFileName('mon-theme', KEY, 'autre.fr'),
      await cacheFileName('a', 'b,c', 'd'),
      await cacheFileName('a,b', 'c', 'd'),
    ]);
    expect(names.size).toBe(6);
  });
});

describe('writeCacheFile and readCacheFile', () => {
  const record = { envelope: null, failures: 2, retryAt: 1_767_225_900 };

  it('writes mode 0600 atomically (no temp file left) and reads it back', async () => {
    const file = join(dir, 'licence-x.json');
    await writeCacheFile(file, record);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['licence-x.json']);
    expect(await readCacheFile(file)).toEqual(record);
    await writeCacheFile(file, { ...record, failures: 3 });
    expect(await readCacheFile(file)).toEqual({ ...record, failures: 3 });
    expect(readdirSync(dir)).toEqual(['licence-x.json']);
  });

  it('replaces a file of any mode with a 0600 one', async () => {
    const file = join(dir, 'licence-x.json');
    writeFileSync(file, '{}', { mode: 0o644 });
    await writeCacheFile(file, record);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('reads no file, garbage and an oversized file as no cache', async () => {
    expect(await readCacheFile(join(dir, 'absent.json'))).toBeNull();
    writeFileSync(join(dir, 'torn.json'), '{"envelope": {"donn');
    expect(await readCacheFile(join(dir, 'torn.json'))).toBeNull();
    writeFileSync(join(dir, 'big.json'), JSON.stringify({ padding: 'x'.repeat(MAX_CACHE_BYTES) }));
    expect(await readCacheFile(join(dir, 'big.json'))).toBeNull();
    writeFileSync(join(dir, 'string.json'), '"just a string"');
    expect(await readCacheFile(join(dir, 'string.json'))).toBe('just a string');
  });

  it('throws other I/O errors for the caller to report, and leaves no temp file behind', async () => {
    mkdirSync(join(dir, 'a-folder.json'));
    await expect(readCacheFile(join(dir, 'a-folder.json'))).rejects.toMatchObject({ code: 'EISDIR' });
    await expect(writeCacheFile(join(dir, 'a-folder.json'), record)).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(['a-folder.json']);
  });

  it('creates the cache folder with its parents, mode 0700', async () => {
    const nested = join(dir, 'a', 'b');
    await ensureCacheDir(nested);
    await ensureCacheDir(nested);
    expect(statSync(nested).mode & 0o777).toBe(0o700);
  });

  it('writes JSON that any reader can parse, the record members as given', async () => {
    const file = join(dir, 'licence-y.json');
    await writeCacheFile(file, { ...record, recu: 5 });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ ...record, recu: 5 });
  });
});
