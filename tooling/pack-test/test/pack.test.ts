import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import type { Package, Problem } from '@arethetypeswrong/core';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * What a user outside this repository gets: every publishable package is packed with `pnpm pack`
 * (which turns `workspace:*` into versions), installed with plain `npm` into projects under the
 * system's temp folder, then loaded from ESM and CommonJS, type-checked as a product would, and
 * linted with publint and attw. Nothing is built here: turbo's `^build` builds the packages this
 * one lists as devDependencies before its `test` runs (and turbo.json runs it after the client's
 * own tests, whose setup rebuilds the client's dist/ in place).
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const require = createRequire(import.meta.url);

/** Every workspace package without `"private": true`; the first test fails when the list changes. */
const PUBLISHABLE = [
  '@licence/client',
  '@licence/core',
  '@licence/service',
  '@licence/store-memory',
  '@licence/store-postgres',
  '@licence/store-sqlite',
  '@licence/vectors',
];

// Packing seven packages and two `npm install`s (registry metadata, cold cache in CI) take far longer
// than the repository's 30 s bound on a test; these bounds are hang guards, not speed targets.
const SETUP_TIMEOUT_MS = 240_000;
const TEST_TIMEOUT_MS = 120_000;

/** RFC 8032 section 7.1, test 1: a real Ed25519 public key, for options that only need a valid one. */
const RFC8032_PUBLIC_KEY = '11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=';
/** A well-formed licence key (25 Crockford base32 characters); no service ever sees it. */
const LICENCE_KEY = 'ABCDE-FGHJK-MNPQR-STVWX-YZ012';

interface Tarball {
  readonly name: string;
  readonly file: string;
  readonly bytes: Buffer;
  readonly manifestText: string;
  readonly manifest: Manifest;
  readonly contents: Package;
}

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
}

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command without a shell; resolves with its exit code (it never rejects for a non-zero one). */
function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeout: number },
): Promise<Run> {
  return new Promise((resolveRun, reject) => {
    execFile(command, args, { ...options, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== 'number') {
        reject(new Error(`${command} ${args.join(' ')}: ${error.message}\n${stderr}`));
        return;
      }
      resolveRun({ code: error === null ? 0 : Number(error.code), stdout, stderr });
    });
  });
}

/** pnpm as this test was started by it (`pnpm test`, turbo), else the `pnpm` on PATH. */
function pnpmCommand(): [string, string[]] {
  const execPath = process.env.npm_execpath;
  if (execPath !== undefined && basename(execPath).startsWith('pnpm') && /\.[cm]?js$/.test(execPath)) {
    return [process.execPath, [execPath]];
  }
  return ['pnpm', []];
}

// npm settings a machine may need to reach its registry; pnpm exports them to scripts as
// npm_config_* and they are kept. Every other npm_* / pnpm_* variable pnpm sets for a script
// (globalconfig pointing at pnpm's rc, frozen-lockfile...) is dropped: this is plain npm.
const KEPT_NPM_CONFIG = new Set([
  'registry',
  'cafile',
  'ca',
  'cache',
  'userconfig',
  'proxy',
  'https_proxy',
  'noproxy',
  'strict_ssl',
  'offline',
  'prefer_offline',
]);

function plainNpmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    const lower = name.toLowerCase();
    if (lower.startsWith('npm_config_') && KEPT_NPM_CONFIG.has(lower.slice('npm_config_'.length))) continue;
    if (lower.startsWith('npm_') || lower.startsWith('pnpm_') || name === 'INIT_CWD') delete env[name];
  }
  return env;
}

async function readManifest(dir: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Manifest;
}

/** The workspace packages (packages/*, apps/*, tooling/*, as pnpm-workspace.yaml lists them) a user could install. */
async function publishablePackages(): Promise<{ name: string; dir: string }[]> {
  const found: { name: string; dir: string }[] = [];
  for (const group of ['packages', 'apps', 'tooling']) {
    for (const entry of await readdir(join(root, group), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const dir = join(root, group, entry.name);
      const manifest = await readManifest(dir).catch(() => null);
      if (manifest !== null && manifest.private !== true) found.push({ name: manifest.name, dir });
    }
  }
  return found.sort((a, b) => (a.name < b.name ? -1 : 1));
}

async function pack(name: string, dir: string, destination: string): Promise<Tarball> {
  await mkdir(destination, { recursive: true });
  const [command, prefix] = pnpmCommand();
  const packed = await run(command, [...prefix, 'pack', '--pack-destination', destination], {
    cwd: dir,
    timeout: SETUP_TIMEOUT_MS,
  });
  if (packed.code !== 0)
    throw new Error(`pnpm pack of ${name} failed (${packed.code}):\n${packed.stdout}\n${packed.stderr}`);
  const [fileName, ...others] = (await readdir(destination)).filter((file) => file.endsWith('.tgz'));
  if (fileName === undefined || others.length > 0)
    throw new Error(`pnpm pack of ${name}: expected one .tgz in ${destination}`);
  const file = join(destination, fileName);
  const bytes = await readFile(file);
  const contents = createPackageFromTarballData(new Uint8Array(bytes));
  const manifestText = contents.readFile(`/node_modules/${contents.packageName}/package.json`);
  return { name, file, bytes, manifestText, manifest: JSON.parse(manifestText) as Manifest, contents };
}

async function npmInstall(project: string, tarballs: readonly string[], extra: readonly string[] = []): Promise<void> {
  await mkdir(project, { recursive: true });
  await writeFile(
    join(project, 'package.json'),
    `${JSON.stringify({ name: basename(project), version: '0.0.0', private: true }, null, 2)}\n`,
  );
  // --prefer-offline: metadata and tarballs from npm's cache when it has them, the registry otherwise.
  const args = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...extra, ...tarballs];
  const installed = await run('npm', args, { cwd: project, env: plainNpmEnv(), timeout: SETUP_TIMEOUT_MS });
  if (installed.code !== 0)
    throw new Error(`npm ${args.join(' ')} in ${project} failed (${installed.code}):\n${installed.stderr}`);
}

/** Runs a script with node in `project`; returns the JSON object it printed last. */
async function node(project: string, file: string, source: string): Promise<Record<string, unknown>> {
  await writeFile(join(project, file), source);
  const result = await run(process.execPath, [file], { cwd: project, timeout: TEST_TIMEOUT_MS });
  if (result.code !== 0) throw new Error(`node ${file} exited with ${result.code}:\n${result.stderr}`);
  const lastLine = result.stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(lastLine) as Record<string, unknown>;
}

/** The same script body, in an ES module (`import`) and in a CommonJS one (`require`). */
function scripts(modules: Record<string, string>, body: string): { mjs: string; cjs: string } {
  const names = Object.entries(modules);
  const mjs = [
    ...names.map(([binding, specifier]) => `import * as ${binding} from '${specifier}';`),
    `const resolved = { ${names.map(([, specifier]) => `'${specifier}': import.meta.resolve('${specifier}')`).join(', ')} };`,
  ];
  const cjs = [
    ...names.map(([binding, specifier]) => `const ${binding} = require('${specifier}');`),
    `const resolved = { ${names.map(([, specifier]) => `'${specifier}': require.resolve('${specifier}')`).join(', ')} };`,
  ];
  const wrapped = `(async () => {\n${body}\n})().catch((error) => { console.error(error); process.exitCode = 1; });\n`;
  return { mjs: `${mjs.join('\n')}\n${wrapped}`, cjs: `${cjs.join('\n')}\n${wrapped}` };
}

let work = '';
let product = '';
let server = '';

const tarballs = new Map<string, Tarball>();

function tarball(name: string): Tarball {
  const found = tarballs.get(name);
  if (found === undefined) throw new Error(`${name} was not packed`);
  return found;
}

/** The built entry each format must resolve to. */
const distEntry = { mjs: /\/dist\/index\.js$/, cjs: /\/dist\/index\.cjs$/ } as const;

/**
 * Two tests, one per module format: `body` runs in the server project (file `<file>.mjs`, then
 * `<file>.cjs`) with `modules` bound, and `check` judges the JSON it printed.
 */
function itRunsInTheServerProject(
  title: string,
  file: string,
  modules: Record<string, string>,
  body: string,
  check: (result: Record<string, unknown>, format: 'mjs' | 'cjs') => void,
): void {
  it.each(['mjs', 'cjs'] as const)(
    title,
    async (format) => {
      check(await node(server, `${file}.${format}`, scripts(modules, body)[format]), format);
    },
    TEST_TIMEOUT_MS,
  );
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'licence-pack-test-'));
  const packages = await publishablePackages();
  const packed = await Promise.all(
    packages.map(({ name, dir }) => pack(name, dir, join(work, 'tarballs', basename(dir)))),
  );
  for (const entry of packed) tarballs.set(entry.name, entry);
  product = join(work, 'product');
  server = join(work, 'server');
  await Promise.all([
    // A product author's project: the client's tarball and nothing else of ours.
    npmInstall(product, [tarball('@licence/client').file]),
    // A self-hosted service: every tarball, side by side, as the server packages need.
    // --ignore-scripts: better-sqlite3 would compile SQLite from source here (its prebuilt binaries
    // are not on the npm registry), minutes on a CI machine. It loads its addon at `new Database()`,
    // not at import, so importing the store still proves it installs and resolves; the store's own
    // suite runs the addon.
    npmInstall(
      server,
      packed.map((entry) => entry.file),
      ['--ignore-scripts'],
    ),
  ]);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  if (work !== '') await rm(work, { recursive: true, force: true });
});

describe('the tarballs of pnpm pack', () => {
  it('are those of exactly the publishable packages', () => {
    expect([...tarballs.keys()]).toEqual(PUBLISHABLE);
    for (const entry of tarballs.values()) {
      const files = entry.contents.listFiles().length;
      console.info(`${basename(entry.file)}: ${(entry.bytes.length / 1024).toFixed(1)} KiB packed, ${files} files`);
    }
  });

  it.each(PUBLISHABLE)('%s: its package.json holds no workspace: range', (name) => {
    expect(tarball(name).manifestText).not.toContain('workspace:');
  });

  it('@licence/client depends on no @licence package: core is bundled, code and types', () => {
    const client = tarball('@licence/client');
    const { dependencies = {}, peerDependencies = {}, optionalDependencies = {} } = client.manifest;
    expect(
      Object.keys({ ...dependencies, ...peerDependencies, ...optionalDependencies }).filter((name) =>
        name.startsWith('@licence/'),
      ),
    ).toEqual([]);
    const prefix = `/node_modules/${client.contents.packageName}/`;
    const code = client.contents.listFiles().filter((file) => /\.(c|m)?(js|ts)$/.test(file));
    expect(code.map((file) => file.slice(prefix.length)).sort()).toEqual([
      'dist/index.cjs',
      'dist/index.d.cts',
      'dist/index.d.ts',
      'dist/index.js',
    ]);
    for (const file of code) {
      expect(client.contents.readFile(file), file).not.toMatch(/["']@licence\/core["']/);
    }
  });

  it('@licence/service has one entry and no peer: no `./testing`, no vitest (the Store contract suite is private tooling)', () => {
    const service = tarball('@licence/service');
    const manifest = JSON.parse(service.manifestText) as { exports?: Record<string, unknown> };
    expect(Object.keys(manifest.exports ?? {})).toEqual(['.']);
    expect(service.manifest.peerDependencies).toBeUndefined();
    const prefix = `/node_modules/${service.contents.packageName}/`;
    expect(
      service.contents.listFiles().filter((file) => /^(dist\/)?testing\//.test(file.slice(prefix.length))),
    ).toEqual([]);
  });

  it("@licence/client's dependencies are exactly bundled core's own (no skew, nothing missing)", () => {
    expect(tarball('@licence/client').manifest.dependencies).toEqual(tarball('@licence/core').manifest.dependencies);
  });
});

describe('publint and attw', () => {
  it.each(PUBLISHABLE)('%s: publint reports nothing, suggestions included', async (name) => {
    const { bytes, manifestText } = tarball(name);
    const tarballBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    const { messages } = await publint({ pack: { tarball: tarballBuffer }, level: 'suggestion', strict: true });
    const manifest = JSON.parse(manifestText) as Record<string, unknown>;
    expect(
      messages.map(
        (message) => `${message.type} ${message.code}: ${formatMessage(message, manifest, { color: false }) ?? ''}`,
      ),
    ).toEqual([]);
  });

  it.each(PUBLISHABLE)(
    '%s: attw finds no problem in any resolution mode (node10, node16 CJS and ESM, bundler)',
    async (name) => {
      const result = await checkPackage(tarball(name).contents);
      expect(result.types, 'the package has types').not.toBe(false);
      const problems: readonly Problem[] = result.types === false ? [] : result.problems;
      // The whole problem is shown on failure: its kind, entrypoint and resolution mode.
      expect(problems).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('@licence/client alone, installed with npm', () => {
  const body = `
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { Licence, ValidationError, isValidationError } = client;
  const cacheDir = mkdtempSync(join(tmpdir(), 'licence-pack-cache-'));
  try {
    const faults = [];
    const options = { cle: ${JSON.stringify(LICENCE_KEY)}, cacheDir, produit: 'mon-theme', publicKeys: [${JSON.stringify(RFC8032_PUBLIC_KEY)}],
      url: 'https://licences.example.com', host: 'https://www.boutique.exemple.fr:8443/panier',
      fetch: async () => { throw new TypeError('fetch failed'); }, onError: (error) => faults.push(error.message) };
    const licence = new Licence(options);
    const errors = [];
    for (const bad of [{ produit: 'Mon Thème' }, { publicKeys: ['AAAA'] }, { cacheDir: '' }]) {
      try {
        new Licence({ ...options, ...bad });
        errors.push(null);
      } catch (error) {
        errors.push({ validationError: error instanceof ValidationError && isValidationError(error), name: error.name, field: error.field, message: error.message });
      }
    }
    const runs = await licence.valide();
    // No key yet (docs/protocol.md#no-usable-key): never a throw, false, no call.
    const told = [];
    const noKey = new Licence({ ...options, cle: '', onError: (error) => told.push(error.message) });
    const keyless = [await noKey.valide(), noKey.verdict.state, noKey.verdict.donnees.motif, told.length];
    console.log(JSON.stringify({ resolved, keyless, exports: Object.keys(client).sort(), hote: licence.hote, runs, state: licence.verdict.state,
      staging: [client.isStagingHost('monsite.kinsta.cloud'), client.isStagingHost('boutique.exemple.fr'), client.isStagingHost('a.exemple.fr', ['*.exemple.fr'])],
      motif: licence.verdict.donnees.motif, crypto: await licence.cryptoName(), errors, faults }));
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }`;
  const { mjs, cjs } = scripts({ client: '@licence/client' }, body);

  function expectWorkingClient(result: Record<string, unknown>, entry: string): void {
    expect(result.resolved).toEqual({
      '@licence/client': expect.stringMatching(
        new RegExp(`/node_modules/@licence/client/dist/${entry.replace('.', '\\.')}$`),
      ),
    });
    expect(result.exports).toEqual([
      'CLIENT_VERSION',
      'DEFAULT_TIMEOUT_MS',
      'Licence',
      'MAX_TIMEOUT_MS',
      'ValidationError',
      'isStagingHost',
      'isValidationError',
    ]);
    // Bundled core at work: host normalisation with tldts (www. removed, port and path dropped).
    expect(result.hote).toBe('boutique.exemple.fr');
    // And its staging patterns: a built-in one, none, a product's own.
    expect(result.staging).toEqual([true, false, true]);
    // No service reachable and no cache: the verdict lapses and the product runs (spec "Client verdict states").
    expect(result).toMatchObject({ runs: true, state: 'lapsed', motif: 'reseau', crypto: 'node:crypto', faults: [] });
    // A buyer key not entered yet is no error: the no_key state (docs/protocol.md#no-usable-key).
    expect(result.keyless).toEqual([false, 'no_key', 'sans_cle', 1]);
    expect(result.errors).toEqual([
      {
        validationError: true,
        name: 'ValidationError',
        field: 'produit',
        message: expect.stringMatching(/^produit: /),
      },
      {
        validationError: true,
        name: 'ValidationError',
        field: 'publicKeys[0]',
        message: expect.stringMatching(/^publicKeys\[0\]: /),
      },
      { validationError: true, name: 'ValidationError', field: 'cacheDir', message: 'cacheDir: is empty' },
    ]);
  }

  it('is the only package of ours in the project', async () => {
    expect(await readdir(join(product, 'node_modules', '@licence'))).toEqual(['client']);
  });

  it(
    'works from an ES module (import)',
    async () => {
      expectWorkingClient(await node(product, 'client-check.mjs', mjs), 'index.js');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'works from CommonJS (require)',
    async () => {
      expectWorkingClient(await node(product, 'client-check.cjs', cjs), 'index.cjs');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'type-checks a product using it (strict) under node16 (ESM and CJS) and bundler resolution, and reports a type error',
    async () => {
      const tsc = require.resolve('typescript/lib/tsc.js');
      // Node's types come from this workspace (a Node product has @types/node): no download for them.
      const typeRoots = [join(dirname(require.resolve('@types/node/package.json')), '..')];
      const use = (wrap: boolean): string => {
        const lines = [
          `const licence = new Licence({ cle: process.env['LICENCE_KEY'] ?? '', cacheDir: '/var/lib/mon-theme', produit: 'mon-theme',`,
          `  publicKeys: [${JSON.stringify(RFC8032_PUBLIC_KEY)}], url: 'https://licences.example.com', host: 'boutique.exemple.fr' });`,
          `if (!(await licence.valide())) console.error(licence.message('fr'));`,
          `if (licence.essai()) console.warn(licence.message('en'));`,
          `const state: 'fresh' | 'refreshed' | 'grace' | 'lapsed' | 'no_key' | undefined = licence.verdict?.state;`,
          `console.log(state, (error: unknown) => error instanceof ValidationError && error.field === 'cle');`,
        ];
        const code = wrap
          ? [`export async function main(): Promise<void> {`, ...lines.map((line) => `  ${line}`), `}`]
          : [...lines, 'export {};'];
        return [`import { Licence, ValidationError } from '@licence/client';`, '', ...code, ''].join('\n');
      };
      // A deliberate error: if the types did not resolve (any), or resolved wrongly, this would not be TS2322.
      const broken = [
        `import { Licence } from '@licence/client';`,
        `declare const licence: Licence;`,
        `export const hote: number = licence.hote;`,
        '',
      ].join('\n');
      await Promise.all([
        writeFile(join(product, 'usage.mts'), use(false)),
        writeFile(join(product, 'usage.cts'), use(true)),
        writeFile(join(product, 'usage.ts'), use(false)),
        writeFile(join(product, 'broken.mts'), broken),
        writeFile(join(product, 'broken.cts'), broken),
        writeFile(join(product, 'broken.ts'), broken),
      ]);
      const configs = {
        node16: {
          module: 'node16',
          moduleResolution: 'node16',
          files: ['usage.mts', 'usage.cts'],
          broken: ['broken.mts', 'broken.cts'],
        },
        bundler: { module: 'esnext', moduleResolution: 'bundler', files: ['usage.ts'], broken: ['broken.ts'] },
      };
      const checks = Object.entries(configs).flatMap(
        ([mode, { module, moduleResolution, files, broken: brokenFiles }]) =>
          [
            { name: `tsconfig.${mode}.json`, files, broken: false },
            { name: `tsconfig.${mode}.broken.json`, files: [...brokenFiles].sort(), broken: true },
          ].map(async ({ name, files: included, broken: isBroken }) => {
            const compilerOptions = {
              strict: true,
              noEmit: true,
              target: 'es2022',
              lib: ['es2022'],
              module,
              moduleResolution,
              types: ['node'],
              typeRoots,
              // Check the client's declaration files too, not only their use (the broken file only
              // needs its own error, and skipping @types/node's halves the time).
              skipLibCheck: isBroken,
            };
            await writeFile(join(product, name), `${JSON.stringify({ compilerOptions, files: included }, null, 2)}\n`);
            const result = await run(process.execPath, [tsc, '-p', name, '--pretty', 'false'], {
              cwd: product,
              timeout: TEST_TIMEOUT_MS,
            });
            return { name, isBroken, included, ...result };
          }),
      );
      for (const { name, isBroken, included, code, stdout } of await Promise.all(checks)) {
        if (!isBroken) {
          expect({ name, code, stdout }).toEqual({ name, code: 0, stdout: '' });
          continue;
        }
        expect(code, name).not.toBe(0);
        const errors = stdout.trim().split('\n').sort();
        expect(errors, name).toEqual(
          included.map((file) =>
            expect.stringMatching(
              new RegExp(
                `^${file.replace('.', '\\.')}\\(3,14\\): error TS2322: Type 'string' is not assignable to type 'number'\\.$`,
              ),
            ),
          ),
        );
      }
    },
    TEST_TIMEOUT_MS,
  );
});

describe('the server packages and core, installed together with npm', () => {
  const signAndVerify = `
  const { createPublicKey, verify } = await import('node:crypto');
  const signer = core.createNobleSigner(new Uint8Array(32).fill(7));
  const publicKey = core.encodeBase64(signer.publicKey);
  const host = core.parseHost('https://www.boutique.exemple.fr/panier');
  const key = { kind: 'buyer', status: 'active', endedAt: null, expiresAt: null, products: ['mon-theme'], sites: 1, domains: [] };
  const { donnees, bind } = core.decideVerdict({ key, host, produit: 'mon-theme', now: 1800000000 });
  const envelope = core.signDonnees(donnees, signer);
  const expectation = { hote: host.hote, produit: 'mon-theme' };
  const otherKey = core.encodeBase64(core.createNobleSigner(new Uint8Array(32).fill(8)).publicKey);
  // An independent check of the same signature with node:crypto (OpenSSL), from the raw key in SPKI form.
  const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(signer.publicKey)]);
  const openssl = verify(null, core.canonicalBytes(donnees), createPublicKey({ key: spki, format: 'der', type: 'spki' }), Buffer.from(envelope.signature, 'base64'));
  console.log(JSON.stringify({ resolved, host, ok: donnees.ok, domaine: donnees.domaine, bind, openssl,
    verified: core.verifyEnvelope(envelope, [publicKey], expectation),
    tampered: core.verifyEnvelope({ ...envelope, donnees: { ...donnees, domaine: 'autre.fr' } }, [publicKey], expectation),
    otherHost: core.verifyEnvelope(envelope, [publicKey], { ...expectation, hote: 'autre.fr' }),
    untrustedKey: core.verifyEnvelope(envelope, [otherKey], expectation) }));`;

  itRunsInTheServerProject(
    '@licence/core signs a verdict and verifies it (%s)',
    'core-check',
    { core: '@licence/core' },
    signAndVerify,
    (result, format) => {
      expect(result.resolved).toEqual({ '@licence/core': expect.stringMatching(distEntry[format]) });
      expect(result).toMatchObject({
        host: { hote: 'boutique.exemple.fr', registrable: 'exemple.fr', test: false },
        ok: true,
        domaine: 'exemple.fr',
        bind: 'exemple.fr',
        openssl: true,
        verified: true,
        tampered: false,
        otherHost: false,
        untrustedKey: false,
      });
    },
  );

  const roundTrip = `
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const signer = core.createNobleSigner(new Uint8Array(32).fill(7));
  const key = { kind: 'buyer', status: 'active', endedAt: null, expiresAt: null, products: ['mon-theme'], sites: 1, domains: [] };
  const requests = [];
  // A fake service: core decides and signs for the host, product and nonce the client sent.
  const fetch = async (url, init) => {
    const sent = JSON.parse(init.body);
    requests.push({ url, sentUrl: sent.url, produit: sent.produit });
    const { donnees } = core.decideVerdict({ key, host: core.parseHost(sent.url), produit: sent.produit, nonce: sent.nonce, now: Math.floor(Date.now() / 1000) });
    return new Response(JSON.stringify(core.signDonnees(donnees, signer)), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const cacheDir = mkdtempSync(join(tmpdir(), 'licence-pack-cache-'));
  try {
    const results = [];
    for (const crypto of ['node', 'noble']) {
      const licence = new client.Licence({ cle: ${JSON.stringify(LICENCE_KEY)}, cacheDir: join(cacheDir, crypto), produit: 'mon-theme', crypto,
        publicKeys: [core.encodeBase64(signer.publicKey)], url: 'https://licences.example.com', host: 'https://www.boutique.exemple.fr/panier', fetch });
      const runs = await licence.valide();
      results.push({ crypto: await licence.cryptoName(), runs, state: licence.verdict.state, ok: licence.verdict.donnees.ok, domaine: licence.verdict.donnees.domaine });
    }
    console.log(JSON.stringify({ resolved, results, requests, sameValidationError: client.ValidationError === core.ValidationError }));
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }`;

  itRunsInTheServerProject(
    '@licence/client accepts a verdict @licence/core signed (%s)',
    'round-trip',
    { core: '@licence/core', client: '@licence/client' },
    roundTrip,
    (result) => {
      const verdict = { runs: true, state: 'refreshed', ok: true, domaine: 'exemple.fr' };
      expect(result.results).toEqual([
        { crypto: 'node:crypto', ...verdict },
        { crypto: 'noble', ...verdict },
      ]);
      const request = {
        url: 'https://licences.example.com/api/licence',
        // docs/protocol.md#hosts-in-clients: the host as configured, normalised by the service.
        sentUrl: 'https://www.boutique.exemple.fr/panier',
        produit: 'mon-theme',
      };
      expect(result.requests).toEqual([request, request]);
      // The client carries its own copy of core: its ValidationError is not @licence/core's
      // (README "Install": catch the client's errors with the client's own exports).
      expect(result.sameValidationError).toBe(false);
    },
  );

  const load = `
  console.log(JSON.stringify({ resolved, createService: typeof service.createService, createKeyAdmin: typeof service.createKeyAdmin,
    createMemoryStore: typeof memory.createMemoryStore, openSqliteStore: typeof sqlite.openSqliteStore, openPostgresStore: typeof postgres.openPostgresStore,
    keyCases: vectors.loadVectors('keys').cases.length, httpCases: vectors.loadHttpVectors().cases.length }));`;
  const serverModules = {
    service: '@licence/service',
    memory: '@licence/store-memory',
    sqlite: '@licence/store-sqlite',
    postgres: '@licence/store-postgres',
    vectors: '@licence/vectors',
  };

  itRunsInTheServerProject(
    '@licence/service, the three stores and @licence/vectors load (%s)',
    'server-check',
    serverModules,
    load,
    (result, format) => {
      expect(result.resolved).toEqual(
        Object.fromEntries(
          Object.values(serverModules).map((specifier) => [specifier, expect.stringMatching(distEntry[format])]),
        ),
      );
      expect(result).toMatchObject({
        createService: 'function',
        createKeyAdmin: 'function',
        createMemoryStore: 'function',
        openSqliteStore: 'function',
        openPostgresStore: 'function',
      });
      expect(result.keyCases).toBeGreaterThan(0);
      expect(result.httpCases).toBeGreaterThan(0);
    },
  );

  // The memory store has no native part to skip: it runs here, under the service it was packed beside.
  const memoryService = `
  const store = memory.createMemoryStore();
  const quiet = () => {};
  const running = service.createService({ store, rateLimiter: service.createMemoryRateLimiter(), clock: { now: () => Date.now() },
    signer: service.createNodeSigner(new Uint8Array(32).fill(7)), logger: { debug: quiet, info: quiet, warn: quiet, error: quiet },
    random: service.randomBytes });
  const health = () => running.handle({ method: 'GET', path: service.HEALTH_PATH, headers: {}, body: null, ip: '127.0.0.1' });
  const up = await health();
  const added = await store.addProduct({ id: 'mon-theme', author: 'alice', name: 'Mon thème', createdAt: 1800000000, staging: [] });
  const product = await store.getProduct('mon-theme');
  await store.close();
  const down = await health();
  console.log(JSON.stringify({ resolved, up: [up.status, JSON.parse(up.body)], added, product, down: [down.status, JSON.parse(down.body)] }));`;
  const memoryModules = { service: '@licence/service', memory: '@licence/store-memory' };

  itRunsInTheServerProject(
    '@licence/store-memory is the store of a running @licence/service (%s)',
    'memory-check',
    memoryModules,
    memoryService,
    (result, format) => {
      expect(result.resolved).toEqual({
        '@licence/service': expect.stringMatching(distEntry[format]),
        '@licence/store-memory': expect.stringMatching(distEntry[format]),
      });
      expect(result).toEqual({
        resolved: result.resolved,
        // GET /healthz pings the store: up while it is open, down once it is closed.
        up: [200, { status: 'ok', store: 'up' }],
        added: { result: 'created', id: 'mon-theme' },
        product: { id: 'mon-theme', author: 'alice', name: 'Mon thème', createdAt: 1800000000, staging: [] },
        down: [503, { status: 'error', store: 'down' }],
      });
    },
  );
});
