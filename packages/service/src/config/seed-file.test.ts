import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configErrorLine } from './parsed.js';
import { loadSeedFile } from './seed-file.js';

const dir = mkdtempSync(join(tmpdir(), 'licence-seed-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadSeedFile (docs/protocol.md#signature)', () => {
  it('reads a base64 32-byte seed, trailing newline included', () => {
    const path = join(dir, 'good');
    writeFileSync(path, `${Buffer.alloc(32, 5).toString('base64')}\n`);
    const seed = loadSeedFile(path, 'LICENCE_SIGNING_KEY_FILE');
    expect(seed.ok && Buffer.from(seed.value).equals(Buffer.alloc(32, 5))).toBe(true);
  });

  it('names the variable and the path, never the content', () => {
    const path = join(dir, 'short');
    const content = Buffer.alloc(24, 6).toString('base64');
    writeFileSync(path, content);
    const short = loadSeedFile(path, 'LICENCE_SIGNING_KEY_FILE');
    const lines = short.ok ? [] : short.errors.map(configErrorLine);
    expect(lines).toEqual([expect.stringMatching(/^LICENCE_SIGNING_KEY_FILE: expected 32 bytes, got 24 .* in /)]);
    expect(lines[0]).toContain(path);
    expect(lines[0]).not.toContain(content);
    const missing = loadSeedFile(join(dir, 'missing'), 'LICENCE_SIGNING_KEY_FILE');
    expect(missing.ok ? [] : missing.errors).toEqual([
      { variable: 'LICENCE_SIGNING_KEY_FILE', message: `cannot read ${join(dir, 'missing')} (ENOENT)` },
    ]);
  });
});
