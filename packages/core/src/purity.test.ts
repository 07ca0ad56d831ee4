import { describe, expect, it } from 'vitest';
import manifest from '../package.json';

/**
 * Core has no I/O (CONTRIBUTING.md#architecture). It never reads the environment, the disk, the
 * clock or the network, and imports nothing from `node:`; what it needs (clock, randomness, signer)
 * is handed in. This test reads every shipped source file (not the tests) and fails on any of them.
 * Vite's import.meta.glob reads the files, so this test itself needs no `node:` module either.
 */
const sources = Object.entries(
  import.meta.glob<string>(['./**/*.ts', '!./**/*.test.ts'], { query: '?raw', import: 'default', eager: true }),
);

const NODE_BUILTINS =
  'assert|async_hooks|buffer|child_process|cluster|console|crypto|dgram|diagnostics_channel|dns|domain|events|fs|http|http2|https|inspector|module|net|os|path|perf_hooks|process|punycode|querystring|readline|repl|stream|string_decoder|timers|tls|trace_events|tty|url|util|v8|vm|wasi|worker_threads|zlib';

const FORBIDDEN: [string, RegExp][] = [
  ['a node: import', /(?:from|import|require)\s*\(?\s*['"]node:/],
  [
    'a Node built-in imported without node:',
    new RegExp(`(?:from|import|require)\\s*\\(?\\s*['"](?:${NODE_BUILTINS})(?:/[^'"]*)?['"]`),
  ],
  ['require()', /\brequire\s*\(/],
  ['process', /\bprocess\s*[.[]/],
  ['globalThis.process', /globalThis\s*\.\s*process/],
  ['Buffer', /\bBuffer\s*\./],
  ['the clock (Date.now)', /\bDate\s*\.\s*now\b/],
  ['the clock (new Date())', /new\s+Date\s*\(\s*\)/],
  ['the clock (performance)', /\bperformance\s*\.\s*now\b/],
  ['randomness (Math.random)', /\bMath\s*\.\s*random\b/],
  ['randomness (getRandomValues)', /getRandomValues|randomUUID/],
  ['the network (fetch)', /\bfetch\s*\(/],
  ['the network (XMLHttpRequest, WebSocket)', /XMLHttpRequest|WebSocket/],
  ['timers', /\bset(?:Timeout|Interval|Immediate)\s*\(/],
  ['dynamic import', /\bimport\s*\(/],
];

// Comments may say "never reads process.env"; only code counts.
const stripComments = (code: string) => code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

describe('core purity', () => {
  it('reads the shipped sources', () => {
    expect(sources.length).toBeGreaterThanOrEqual(10);
    expect(sources.map(([path]) => path)).toContain('./index.ts');
  });

  it.each(sources)('%s touches no I/O', (_path, text) => {
    const code = stripComments(text);
    for (const [what, pattern] of FORBIDDEN) {
      expect(pattern.test(code), `found ${what}`).toBe(false);
    }
  });

  it('imports only its declared, pure dependencies', () => {
    const allowed = new Set(Object.keys(manifest.dependencies));
    for (const [path, text] of sources) {
      for (const match of stripComments(text).matchAll(/from\s+['"]([^'"]+)['"]/g)) {
        const specifier = match[1] ?? '';
        if (specifier.startsWith('.')) continue;
        const name = specifier.startsWith('@')
          ? specifier.split('/').slice(0, 2).join('/')
          : (specifier.split('/')[0] ?? '');
        expect(allowed.has(name), `${path} imports ${specifier}`).toBe(true);
      }
    }
    expect([...allowed].sort()).toEqual(['@noble/ed25519', '@noble/hashes', 'tldts']);
  });

  it('the patterns catch what they are meant to catch', () => {
    const samples = [
      "import { readFileSync } from 'node:fs';",
      "import fs from 'fs';",
      "import { createHash } from 'crypto';",
      'const x = require("path");',
      'const e = process.env.X;',
      'const now = Date.now();',
      'const d = new Date();',
      'const r = Math.random();',
      'await fetch(url);',
      'setTimeout(f, 1);',
      "const m = await import('x');",
    ];
    for (const sample of samples) {
      expect(
        FORBIDDEN.some(([, pattern]) => pattern.test(sample)),
        sample,
      ).toBe(true);
    }
    expect(FORBIDDEN.some(([, pattern]) => pattern.test('const d = new Date(seconds * 1000); // not Date.now()'))).toBe(
      true, // the comment is stripped before the check in real use
    );
    expect(
      FORBIDDEN.some(([, pattern]) => pattern.test(stripComments('const d = new Date(seconds * 1000); // Date.now()'))),
    ).toBe(false);
  });
});
