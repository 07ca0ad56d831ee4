import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEBIAN_BIN_DIRS, findPostgresBinDir } from './find-postgres-bin.js';

describe('findPostgresBinDir', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'licence-pgbin-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function fakeBinaries(folder: string, names: readonly string[]): Promise<void> {
    await mkdir(folder, { recursive: true });
    for (const name of names) {
      await writeFile(join(folder, name), '#!/bin/sh\nexit 0\n');
      await chmod(join(folder, name), 0o755);
    }
  }

  it('takes PG_BIN_DIR first when it holds initdb and pg_ctl', async () => {
    await fakeBinaries(join(dir, 'bin'), ['initdb', 'pg_ctl']);
    expect(await findPostgresBinDir({ PG_BIN_DIR: join(dir, 'bin'), PATH: '' })).toBe(join(dir, 'bin'));
  });

  it('passes over a folder with only one of the two', async () => {
    await fakeBinaries(join(dir, 'half'), ['initdb']);
    const result = await findPostgresBinDir({ PG_BIN_DIR: join(dir, 'half'), PATH: '' });
    expect(result).not.toBe(join(dir, 'half'));
  });

  it('looks through PATH when nothing else has them', async () => {
    await fakeBinaries(join(dir, 'on-path'), ['initdb', 'pg_ctl']);
    const result = await findPostgresBinDir({ PATH: join(dir, 'on-path') });
    // This machine may have Debian's folders, which come first; otherwise PATH answers.
    expect([...DEBIAN_BIN_DIRS, join(dir, 'on-path')]).toContain(result);
  });
});
