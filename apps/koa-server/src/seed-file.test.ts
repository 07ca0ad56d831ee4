import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSeedFile, ensureSeedFile, readSeedFile } from './seed-file.js';
import { StartupError } from './startup-error.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'licence-seed-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('createSeedFile', () => {
  it('writes 32 random bytes as base64, mode 0600, and leaves no temporary file', () => {
    const path = join(dir, 'signing-key');
    const made = createSeedFile(path);
    expect(made.result).toBe('created');
    const text = readFileSync(path, 'utf8');
    expect(text).toMatch(/^[A-Za-z0-9+/]{43}=\n$/);
    expect(made.result === 'created' && Buffer.from(made.seed).toString('base64')).toBe(text.trim());
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['signing-key']);
  });

  it('never overwrites an existing file', () => {
    const path = join(dir, 'signing-key');
    writeFileSync(path, 'keep me\n');
    expect(createSeedFile(path)).toEqual({ result: 'exists' });
    expect(readFileSync(path, 'utf8')).toBe('keep me\n');
    expect(readdirSync(dir)).toEqual(['signing-key']);
  });
});

describe('ensureSeedFile', () => {
  it('creates once, then reuses the same seed', () => {
    const path = join(dir, 'signing-key');
    const first = ensureSeedFile(path);
    const second = ensureSeedFile(path);
    expect(first.created).toBe(true);
    expect(second.created).toBe(false);
    expect(Buffer.from(second.seed).equals(Buffer.from(first.seed))).toBe(true);
  });
});

describe('readSeedFile', () => {
  it('refuses a bad file in one line that never shows its content', () => {
    const path = join(dir, 'bad');
    writeFileSync(path, 'c2VjcmV0LXRoYXQtaXMtdG9vLXNob3J0\n', { mode: 0o600 });
    expect(() => readSeedFile(path, 'LICENCE_SIGNING_KEY_FILE')).toThrow(StartupError);
    expect(() => readSeedFile(path, 'LICENCE_SIGNING_KEY_FILE')).toThrow(
      /^LICENCE_SIGNING_KEY_FILE: expected 32 bytes, got 24/,
    );
    try {
      readSeedFile(path, 'LICENCE_SIGNING_KEY_FILE');
    } catch (error) {
      expect(String(error)).not.toContain('c2VjcmV0');
    }
  });

  it('names a missing file', () => {
    expect(() => readSeedFile(join(dir, 'none'), 'LICENCE_SIGNING_KEY_FILE')).toThrow(
      `LICENCE_SIGNING_KEY_FILE: cannot read ${join(dir, 'none')} (ENOENT)`,
    );
  });

  it('sets a key file others may read to 0600, as the database files, and says so', () => {
    const path = join(dir, 'open');
    writeFileSync(path, `${Buffer.alloc(32, 5).toString('base64')}\n`);
    chmodSync(path, 0o644);
    const read = readSeedFile(path, 'LICENCE_SIGNING_KEY_FILE');
    expect(Buffer.from(read.seed).equals(Buffer.alloc(32, 5))).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(read.warning).toBe(`${path} was readable by other users (mode 0644); it is now 0600`);
    expect(readSeedFile(path, 'LICENCE_SIGNING_KEY_FILE').warning).toBeUndefined();
  });

  // A file of another user (root's secret mount, for a server that runs as nobody): run as root,
  // the test reads root's 0644 file from a child process running as nobody, through dist (built
  // from these sources by the suite's globalSetup, test/build-dist.ts).
  it.skipIf(process.getuid?.() !== 0)('warns, with what to do, when the process may not chmod the file', () => {
    chmodSync(dir, 0o755);
    const path = join(dir, 'mounted');
    writeFileSync(path, `${Buffer.alloc(32, 6).toString('base64')}\n`);
    chmodSync(path, 0o644);
    const script = [
      `import { readSeedFile } from ${JSON.stringify(new URL('../dist/index.js', import.meta.url).pathname)};`,
      `const read = readSeedFile(${JSON.stringify(path)}, 'LICENCE_SIGNING_KEY_FILE');`,
      'console.log(JSON.stringify({ warning: read.warning, bytes: read.seed.length }));',
    ].join('\n');
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      uid: 65534,
      gid: 65534,
      encoding: 'utf8',
    });
    expect(child.stderr).toBe('');
    const answer = JSON.parse(child.stdout) as { warning: string; bytes: number };
    expect(answer.bytes).toBe(32);
    expect(answer.warning).toBe(
      `${path} is readable by other users (mode 0644) and cannot be set to 0600 (EPERM: not its owner, or a read-only mount); make it 0400 or 0600 where it is made (a Kubernetes secret volume's defaultMode, a Docker secret's mode), or copy it to a file only this user can read`,
    );
    expect(statSync(path).mode & 0o777).toBe(0o644);
  });
});
