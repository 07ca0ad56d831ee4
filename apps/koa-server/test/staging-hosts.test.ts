import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isRecord } from '@licence/core';
import { afterAll, describe, expect, it } from 'vitest';
import { keySpellings, linesHolding } from './capture-logs.js';
import { allOutput, CLI, cleOf, runCli, spawnServe, verdictFrom } from './cli-process.js';
import type { ServeProcess } from './cli-process.js';
import { parseJson } from './serve-processes.js';

/**
 * Staging host patterns beyond the built-in ones (docs/protocol.md#staging-hosts), end to end on a
 * real `licence serve` child process: the operator's LICENCE_STAGING_HOSTS, and a product's own
 * list set through `PATCH /admin/products/:id` and through `licence product staging`. A host that
 * matches answers `ok` with `essai` true and binds nothing (the key and the installations say so);
 * a host that merely holds the pattern's text is a real site and binds. A bad pattern in
 * LICENCE_STAGING_HOSTS stops the start with one line.
 */

const root = mkdtempSync(join(tmpdir(), 'licence-staging-'));
const ADMIN_TOKEN = randomBytes(24).toString('base64url');
const UA = 'MonTheme/2.1';
const usedKeys: string[] = [];

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** An admin API call with the operator's token; the status and the JSON body ({} for none). */
async function adminCall(
  url: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? {} : parseJson(text) };
}

/** A product (its staging patterns given or not) and a one-site buyer key of it, through the admin API. */
async function productWithKey(url: string, id: string, staging?: readonly string[]): Promise<string> {
  const product = await adminCall(url, 'POST', '/admin/products', {
    id,
    author: 'atelier',
    name: id,
    ...(staging === undefined ? {} : { staging }),
  });
  expect(product.status).toBe(201);
  const issued = await adminCall(url, 'POST', '/admin/keys', { produit: id, kind: 'buyer' });
  expect(issued.status).toBe(201);
  return cleOf(JSON.stringify(issued.body), usedKeys);
}

/** The verdict's `ok`, `essai` and `domaine` for `cle` on `host`. */
async function verdictOn(url: string, cle: string, host: string): Promise<Record<string, unknown>> {
  const { donnees } = await verdictFrom(url, { cle, url: `https://${host}/` }, UA);
  return { ok: donnees.ok, essai: donnees.essai, domaine: donnees.domaine };
}

/** `licence key show <cle> --json`'s bound domains, read from the store by the CLI. */
async function boundDomains(cwd: string, cle: string): Promise<unknown[]> {
  const shown = await runCli(['key', 'show', cle, '--json'], { cwd });
  expect(shown.code).toBe(0);
  const domains = parseJson(shown.stdout).domains;
  if (!Array.isArray(domains)) throw new Error(`no domains in ${shown.stdout}`);
  return domains.map((entry: unknown) => (isRecord(entry) ? entry.domain : entry));
}

describe('LICENCE_STAGING_HOSTS and product staging patterns on `licence serve`', () => {
  const cwd = mkdtempSync(join(root, 'serve-'));
  let serve: ServeProcess | undefined;

  afterAll(async () => {
    serve?.child.kill('SIGTERM');
    if (serve !== undefined) expect(await serve.exited).toBe(0);
  });

  it('starts with the operator patterns, and says how many in the banner and the start log line', async () => {
    serve = await spawnServe({
      cwd,
      env: { LICENCE_ADMIN_TOKEN: ADMIN_TOKEN, LICENCE_STAGING_HOSTS: '*.Recette.Exemple.fr., preview-*.exemple.net' },
    });
    expect(serve.banner).toContain(
      'staging hosts (LICENCE_STAGING_HOSTS, beyond the built-in ones): 2 pattern(s): *.recette.exemple.fr, preview-*.exemple.net\n',
    );
    expect(await serve.waitForLog('licence service started')).toMatchObject({ stagingHosts: 2 });
  });

  it("an operator pattern: ok, essai, nothing bound, for any product's key; a host merely holding its text binds", async () => {
    const url = serve?.url ?? '';
    const cle = await productWithKey(url, 'theme');
    expect(await verdictOn(url, cle, 'v2.recette.exemple.fr')).toEqual({
      ok: true,
      essai: true,
      domaine: 'exemple.fr',
    });
    expect(await verdictOn(url, cle, 'preview-7.exemple.net')).toEqual({
      ok: true,
      essai: true,
      domaine: 'exemple.net',
    });
    expect(await boundDomains(cwd, cle)).toEqual([]);
    const none = await adminCall(url, 'GET', '/admin/products/theme/installations');
    expect(none.body).toMatchObject({ count: 0 });

    // `notrecette` is not the label `recette`, and `mypreview-7` does not start with `preview-`.
    expect(await verdictOn(url, cle, 'notrecette.exemple.fr')).toEqual({
      ok: true,
      essai: false,
      domaine: 'exemple.fr',
    });
    expect(await boundDomains(cwd, cle)).toEqual(['exemple.fr']);
    expect((await adminCall(url, 'GET', '/admin/products/theme/installations')).body).toMatchObject({ count: 1 });
  });

  it("a product's pattern set through PATCH /admin/products/:id: its keys only, nothing bound", async () => {
    const url = serve?.url ?? '';
    const cle = await productWithKey(url, 'boutique');
    const patched = await adminCall(url, 'PATCH', '/admin/products/boutique', { staging: ['Recette-*.Boutique.fr'] });
    expect(patched).toEqual({
      status: 200,
      body: { id: 'boutique', author: 'atelier', name: 'boutique', staging: ['recette-*.boutique.fr'] },
    });
    expect(await verdictOn(url, cle, 'recette-3.boutique.fr')).toEqual({
      ok: true,
      essai: true,
      domaine: 'boutique.fr',
    });
    expect(await boundDomains(cwd, cle)).toEqual([]);

    // Another product's key: the pattern is not its product's, so the host binds.
    const other = await productWithKey(url, 'autre');
    expect(await verdictOn(url, other, 'recette-3.boutique.fr')).toEqual({
      ok: true,
      essai: false,
      domaine: 'boutique.fr',
    });
    expect(await boundDomains(cwd, other)).toEqual(['boutique.fr']);
    // And the product's own key binds a host that merely holds the text.
    expect(await verdictOn(url, cle, 'myrecette-3.boutique.fr')).toEqual({
      ok: true,
      essai: false,
      domaine: 'boutique.fr',
    });
    expect(await boundDomains(cwd, cle)).toEqual(['boutique.fr']);
  });

  it('a product pattern set through `licence product staging`, read by the running server at the next verdict', async () => {
    const url = serve?.url ?? '';
    const cle = await productWithKey(url, 'plugin');
    const set = await runCli(['product', 'staging', 'plugin', 'demo-*.client.fr', '*.essai.client.fr', '--json'], {
      cwd,
    });
    expect(set.code).toBe(0);
    expect(parseJson(set.stdout)).toEqual({
      id: 'plugin',
      author: 'atelier',
      name: 'plugin',
      staging: ['demo-*.client.fr', '*.essai.client.fr'],
    });
    expect(await verdictOn(url, cle, 'demo-1.client.fr')).toEqual({ ok: true, essai: true, domaine: 'client.fr' });
    expect(await verdictOn(url, cle, 'a.b.essai.client.fr')).toEqual({ ok: true, essai: true, domaine: 'client.fr' });
    expect(await boundDomains(cwd, cle)).toEqual([]);
    expect((await adminCall(url, 'GET', '/admin/products')).body.products).toContainEqual(
      expect.objectContaining({ id: 'plugin', staging: ['demo-*.client.fr', '*.essai.client.fr'], installations: 0 }),
    );

    // A bad pattern: one line, exit 1, nothing changed. No pattern at all clears the list.
    const bad = await runCli(['product', 'staging', 'plugin', 'client.*'], { cwd });
    expect(bad).toEqual({
      code: 1,
      stdout: '',
      stderr: 'licence: product staging: staging: "client.*" has a "*" outside its leftmost label\n',
    });
    const cleared = await runCli(['product', 'staging', 'plugin'], { cwd });
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toContain('staging: (none)\n');
    expect(await verdictOn(url, cle, 'demo-1.client.fr')).toEqual({ ok: true, essai: false, domaine: 'client.fr' });
  });

  it('`licence product add --staging` stores the patterns of a new product', async () => {
    const added = await runCli(
      ['product', 'add', 'kit', '--author', 'atelier', '--name', 'Kit', '--staging', '*.recette.kit.fr, beta-*.kit.fr'],
      { cwd },
    );
    expect(added.code).toBe(0);
    expect(added.stdout).toBe(
      'id: kit\nauthor: atelier\nname: Kit\nstaging:\n  - *.recette.kit.fr\n  - beta-*.kit.fr\n',
    );
  });

  it('no log line and no stderr line holds a key or the admin token (docs/protocol.md#privacy)', () => {
    expect(usedKeys.length).toBeGreaterThanOrEqual(4);
    const secrets = [...usedKeys.flatMap(keySpellings), ADMIN_TOKEN];
    expect(linesHolding(allOutput.stdout, secrets)).toEqual([]);
    expect(linesHolding(allOutput.stderr, secrets)).toEqual([]);
  });
});

describe('a bad LICENCE_STAGING_HOSTS stops the start (docs/protocol.md#configuration)', () => {
  it('with one line naming the variable and quoting the pattern, exit code 1', async () => {
    const outcome = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [CLI, 'serve'],
        {
          cwd: mkdtempSync(join(root, 'bad-')),
          env: {
            PATH: process.env.PATH ?? '/usr/bin:/bin',
            PORT: '0',
            LICENCE_STAGING_HOSTS: '*.recette.fr, exemple.*',
          },
          timeout: 10_000,
          killSignal: 'SIGKILL',
        },
        (error, stdout, stderr) => {
          resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr });
        },
      );
    });
    expect(outcome).toEqual({
      code: 1,
      stdout: '',
      stderr: 'licence: LICENCE_STAGING_HOSTS: "exemple.*" has a "*" outside its leftmost label\n',
    });
  });
});
