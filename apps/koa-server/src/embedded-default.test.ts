import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configErrorLine } from '@licence/service';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import type { ServerConfig } from './config.js';
import { ensureDataDir, prepareData } from './embedded-default.js';
import { StartupError } from './startup-error.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'licence-embedded-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function config(env: Record<string, string> = {}): ServerConfig {
  const result = loadConfig(env, root);
  if (!result.ok) throw new Error(result.errors.map(configErrorLine).join('\n'));
  return result.value;
}

describe('prepareData (the embedded default, docs/protocol.md#signature)', () => {
  it('creates ./data (0700) and signing-key (0600) on first start, and reuses them on the second', () => {
    const first = prepareData(config());
    const dataDir = join(root, 'data');
    expect(first.createdDataDir).toBe(true);
    expect(first.createdSigningKey).toBe(true);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    const keyFile = join(dataDir, 'signing-key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(keyFile, 'utf8').trim()).toBe(Buffer.from(first.seed).toString('base64'));

    const second = prepareData(config());
    expect(second.createdDataDir).toBe(false);
    expect(second.createdSigningKey).toBe(false);
    expect(Buffer.from(second.seed).equals(Buffer.from(first.seed))).toBe(true);
  });

  it('creates nested folders', () => {
    prepareData(config({ LICENCE_DATA_DIR: 'a/b/c' }));
    expect(statSync(join(root, 'a/b/c')).mode & 0o777).toBe(0o700);
  });

  it('uses LICENCE_SIGNING_KEY without writing a key file', () => {
    const seed = Buffer.alloc(32, 3);
    const prepared = prepareData(config({ LICENCE_SIGNING_KEY: seed.toString('base64') }));
    expect(Buffer.from(prepared.seed).equals(seed)).toBe(true);
    expect(prepared.createdSigningKey).toBe(false);
    expect(() => statSync(join(root, 'data', 'signing-key'))).toThrow();
  });

  it('with DATABASE_URL: creates the data folder only for the embedded key file', () => {
    const seed = Buffer.alloc(32, 5);
    const url = 'postgres://licence@127.0.0.1:5432/licence';
    const configured = prepareData(config({ DATABASE_URL: url, LICENCE_SIGNING_KEY: seed.toString('base64') }));
    expect(configured.createdDataDir).toBe(false);
    expect(() => statSync(join(root, 'data'))).toThrow();
    const embedded = prepareData(config({ DATABASE_URL: url }));
    expect(embedded.createdDataDir).toBe(true);
    expect(embedded.createdSigningKey).toBe(true);
    expect(statSync(join(root, 'data', 'signing-key')).mode & 0o777).toBe(0o600);
  });

  it('reads LICENCE_SIGNING_KEY_FILE', () => {
    const seed = Buffer.alloc(32, 4);
    writeFileSync(join(root, 'key'), `${seed.toString('base64')}\n`, { mode: 0o600 });
    const prepared = prepareData(config({ LICENCE_SIGNING_KEY_FILE: 'key' }));
    expect(Buffer.from(prepared.seed).equals(seed)).toBe(true);
    expect(prepared.warnings).toEqual([]);
  });

  it('stops with one line, at once, where no folder can be made: under /proc (a recursive mkdir loops there)', () => {
    expect(() => ensureDataDir('/proc/licence-nope/data')).toThrow(
      new StartupError('LICENCE_DATA_DIR: cannot create /proc/licence-nope/data (ENOENT at /proc/licence-nope)'),
    );
  });

  it('stops with one line when a parent of LICENCE_DATA_DIR is a file', () => {
    writeFileSync(join(root, 'file'), '');
    const dir = join(root, 'file', 'a', 'data');
    expect(() => ensureDataDir(dir)).toThrow(
      new StartupError(`LICENCE_DATA_DIR: ${dir} cannot be created: ${join(root, 'file')} is not a directory`),
    );
  });

  it('creates only the missing levels, and says when the folder was there already', () => {
    expect(ensureDataDir(join(root, 'x', 'y'))).toBe(true);
    expect(statSync(join(root, 'x')).isDirectory()).toBe(true);
    expect(ensureDataDir(join(root, 'x', 'y'))).toBe(false);
    expect(ensureDataDir(root)).toBe(false);
  });

  it('stops with one line when LICENCE_DATA_DIR is a file', () => {
    writeFileSync(join(root, 'file'), '');
    expect(() => ensureDataDir(join(root, 'file'))).toThrow(StartupError);
    expect(() => ensureDataDir(join(root, 'file'))).toThrow(
      `LICENCE_DATA_DIR: ${join(root, 'file')} exists and is not a directory`,
    );
  });
});
