import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeBase64, publicKeyOf } from '@licence/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatKeygen, keygen } from './keygen.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'licence-keygen-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const fixed = (length: number) => new Uint8Array(length).fill(42);

describe('keygen', () => {
  it('prints the public key of the seed it wrote, and the seed only when asked', () => {
    const result = keygen({ out: 'k', printSeed: false, cwd: dir }, fixed);
    expect(result).toEqual({ publicKey: encodeBase64(publicKeyOf(fixed(32))), file: join(dir, 'k') });
    const withSeed = keygen({ out: 'k2', printSeed: true, cwd: dir }, fixed);
    expect(withSeed.seed).toBe(encodeBase64(fixed(32)));
  });

  it('formats a paste-able line for each', () => {
    const text = formatKeygen({ publicKey: 'PUB=', file: '/a b/k', seed: 'SEED=' });
    expect(text).toBe(
      "public key (base64): PUB=\nsigning key written to /a b/k (mode 0600); serve with LICENCE_SIGNING_KEY_FILE='/a b/k'\nLICENCE_SIGNING_KEY=SEED=\n",
    );
  });

  it('refuses to overwrite', () => {
    keygen({ out: 'k', printSeed: false, cwd: dir });
    expect(() => keygen({ out: 'k', printSeed: false, cwd: dir })).toThrow(
      /already exists; refusing to overwrite a signing key/,
    );
  });
});
