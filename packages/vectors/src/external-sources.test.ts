import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkLocalFiles,
  EXTERNAL_DIR,
  gitBlobId,
  listDataFiles,
  rawUrl,
  readManifest,
} from '../scripts/external-manifest.mjs';
import { externalVectorsDir, readExternal } from './external.js';

// The third-party data in external/ is upstream's bytes: each file's git blob id is the one
// external/sources.json records for the upstream commit it was read from (the same check as
// `node scripts/refresh-external.mjs --check`; see packages/vectors/external/README.md).
const manifest = readManifest();

describe('external test data (external/sources.json)', () => {
  it('computes git blob ids as git does', () => {
    // What `printf 'hello\n' | git hash-object --stdin` and `git hash-object --stdin </dev/null` print.
    expect(gitBlobId(new TextEncoder().encode('hello\n'))).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
    expect(gitBlobId(new Uint8Array())).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
  });

  it.each(manifest.map((entry) => [entry.file, entry] as const))(
    '%s has the git blob id of its upstream commit',
    (file, entry) => {
      expect(
        gitBlobId(readFileSync(join(EXTERNAL_DIR, file))),
        `${entry.repository} ${entry.path} @ ${entry.commit}`,
      ).toBe(entry.blob);
      expect(entry.url).toBe(rawUrl(entry.repository, entry.commit, entry.path));
      expect(['Apache-2.0', 'MIT', 'BSD-3-Clause', 'CC0-1.0']).toContain(entry.license);
    },
  );

  it('lists every data file under external/, and only those', () => {
    expect(listDataFiles()).toEqual(manifest.map((entry) => entry.file).sort());
    expect(checkLocalFiles()).toEqual([]);
  });

  it('ships the licence texts the licences ask for', () => {
    const licences = new Set(manifest.map((entry) => entry.license));
    const needs: Record<string, string[]> = {
      'Apache-2.0': ['Apache-2.0.txt'],
      MIT: ['noble-ed25519-LICENSE'],
      'BSD-3-Clause': ['web-platform-tests-LICENSE.md'],
      'CC0-1.0': [],
    };
    for (const licence of licences) {
      for (const file of needs[licence] ?? ['(unknown licence)'])
        expect(existsSync(join(EXTERNAL_DIR, 'licenses', file)), file).toBe(true);
    }
  });

  it('names a changed byte and an unlisted file', () => {
    const copy = mkdtempSync(join(tmpdir(), 'licence-external-'));
    try {
      cpSync(EXTERNAL_DIR, copy, { recursive: true });
      const first = manifest[0];
      if (first === undefined) throw new Error('sources.json lists no file');
      writeFileSync(join(copy, first.file), Buffer.concat([readFileSync(join(copy, first.file)), Buffer.from(' ')]));
      writeFileSync(join(copy, 'psl', 'extra.txt'), 'not upstream\n');
      const problems = checkLocalFiles(copy);
      expect(problems).toHaveLength(2);
      expect(problems[0]).toMatch(new RegExp(`^${first.file}: git blob [0-9a-f]{40}, manifest says ${first.blob}`));
      expect(problems[1]).toBe('psl/extra.txt: not listed in sources.json');
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('is what readExternal reads: the package folder, nothing outside it', () => {
    expect(externalVectorsDir()).toBe(EXTERNAL_DIR);
    expect(readExternal('psl/tests.txt')).toBe(readFileSync(join(EXTERNAL_DIR, 'psl', 'tests.txt'), 'utf8'));
  });
});
