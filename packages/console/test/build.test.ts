import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The build, run for real into a temporary folder: the page must load under the CSP the service
 * sends (default-src 'self', docs/protocol.md#console), by relative URLs, and the package entry
 * must carry the very files built.
 */

type Assets = { readonly files: Readonly<Record<string, { readonly type: string; readonly body: string }>> };

const script = fileURLToPath(new URL('../scripts/build.mjs', import.meta.url));
let out: string;
let assets: Assets;

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'console-build-'));
  await promisify(execFile)(process.execPath, [script, '--out', out]);
  assets = ((await import(pathToFileURL(join(out, 'index.js')).href)) as { consoleAssets: Assets }).consoleAssets;
});

afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

const body = (name: string) => assets.files[name]?.body ?? '';

describe('the built console', () => {
  it('the entry carries each asset file with its content type and charset, in ESM and CommonJS alike', async () => {
    expect(Object.keys(assets.files).sort()).toEqual(['console.css', 'console.js', 'icon.svg', 'index.html']);
    for (const [name, file] of Object.entries(assets.files)) {
      expect(file.body).toBe(await readFile(join(out, 'assets', name), 'utf8'));
      expect(file.type).toMatch(/; charset=utf-8$/);
    }
    expect(assets.files['console.js']?.type).toBe('text/javascript; charset=utf-8');
    expect(Object.isFrozen(assets.files)).toBe(true);
    const cjs = createRequire(import.meta.url)(join(out, 'index.cjs')) as { consoleAssets: Assets };
    expect(cjs.consoleAssets).toEqual(assets);
    expect(await readFile(join(out, 'index.d.ts'), 'utf8')).toContain('export declare const consoleAssets');
  });

  it('the page has nothing inline the CSP would block: no inline script or style, no style=, no on*=', () => {
    const html = body('index.html');
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(html).not.toMatch(/<style/i);
    expect(html).not.toMatch(/\sstyle=/i);
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });

  it('the page loads its assets by relative URLs, from the same origin, so a stage prefix works', () => {
    const html = body('index.html');
    expect(html).toContain('<script type="module" src="console/console.js"></script>');
    expect(html).toContain('<link rel="stylesheet" href="console/console.css">');
    expect(html).not.toMatch(/(src|href)="(\/|https?:)/);
  });

  it('the page has the `<html lang="en"` the service rewrites, a viewport, and a bilingual noscript', () => {
    const html = body('index.html');
    expect(html.split('<html lang="en"').length).toBe(2);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toMatch(/<noscript>[\s\S]*lang="en"[\s\S]*lang="fr"[\s\S]*<\/noscript>/);
  });

  it('the script is minified, fetches nothing from elsewhere, and logs nothing', () => {
    const js = body('console.js');
    // A few lines only: esbuild writes a string's "\n" as a real line break inside a template
    // literal (the CSV's rows, the staging box's lines), never one line per statement.
    expect(js.split('\n').length).toBeLessThan(8);
    expect(js.startsWith('/*! Preact | MIT License')).toBe(true);
    const urls = js.match(/https?:\/\/[^"'`\s)]+/g) ?? [];
    expect(urls.filter((u) => !u.startsWith('http://www.w3.org/'))).toEqual([]);
    expect(js).not.toMatch(/console\.(log|info|debug|warn|error)/);
    expect(js).not.toMatch(/\beval\(|new Function\(/);
  });

  it('the style sheet imports nothing and points at no other origin', () => {
    const css = body('console.css');
    expect(css).not.toMatch(/@import|url\(/);
    expect(css.length).toBeGreaterThan(1000);
  });
});
