// @ts-check
// The single-file bundle AWS Lambda runs: src/handler.ts and everything it imports
// (core, service, store-postgres, pg) in ONE file, dist/lambda/index.mjs, whose `handler` export
// is template.yaml's `index.handler`. `node scripts/bundle.mjs` builds it and prints its size.
import { statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const APP_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE_DIR = join(APP_DIR, 'dist', 'lambda');
export const BUNDLE_FILE = join(BUNDLE_DIR, 'index.mjs');

/**
 * ES module (`.mjs`: the Lambda Node runtimes load it as ESM whatever package.json says), for
 * Node 20 and later (nodejs20.x, nodejs22.x). pg is CommonJS and calls require() for Node's
 * built-ins; an ES module has no `require`, so the banner makes one (esbuild's documented way).
 * `pg-native` is pg's optional libpq binding, required only by `pg.native`, which we never touch.
 *
 * @param {{ outfile?: string, minify?: boolean }} [options]
 * @returns {Promise<{ file: string, bytes: number, inputs: string[], externals: string[] }>}
 */
export async function bundleLambda(options = {}) {
  const outfile = options.outfile ?? BUNDLE_FILE;
  const result = await build({
    entryPoints: [join(APP_DIR, 'src', 'handler.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    minify: options.minify ?? true,
    legalComments: 'eof',
    external: ['pg-native'],
    // pg sniffs for Cloudflare Workers when it loads (pg/lib/stream.js): without a global
    // `navigator` (Node 20 has none) it builds a `new Response(...)`, which makes Node load its
    // whole fetch implementation (undici): some 30 ms of every cold start on nodejs20.x, for
    // nothing. A Lambda is never a Worker: `navigator` is pinned at build time to what Node 22
    // itself answers, so pg decides "not Workers" at once. Only pg reads `navigator` here (the
    // bundle test checks the bundle still answers on PostgreSQL).
    define: { navigator: '{"userAgent":"Node.js"}' },
    banner: {
      js: "import { createRequire as __licenceCreateRequire } from 'node:module'; const require = __licenceCreateRequire(import.meta.url);",
    },
    metafile: true,
    logLevel: 'warning',
  });
  const inputs = Object.keys(result.metafile.inputs);
  // What the bundle still imports at run time: Node's built-ins (and pg-native, never loaded).
  const externals = [
    ...new Set(
      Object.values(result.metafile.outputs).flatMap((output) =>
        output.imports.filter((entry) => entry.external).map((entry) => entry.path),
      ),
    ),
  ];
  return { file: outfile, bytes: statSync(outfile).size, inputs, externals };
}

/**
 * The package an esbuild input belongs to: `pg` for node_modules/.pnpm/pg@8/node_modules/pg/lib/x.js,
 * `@licence/core` for ../../packages/core/dist/index.js, null for this app's own sources.
 * @param {string} input
 */
export function packageOf(input) {
  const fromModules = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (fromModules?.[1] !== undefined) return fromModules[1];
  const workspace = /^(?:\.\.\/)+(?:packages|tooling)\/([^/]+)\//.exec(input);
  return workspace?.[1] === undefined ? null : `@licence/${workspace[1]}`;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { file, bytes, inputs } = await bundleLambda();
  const packages = [...new Set(inputs.map(packageOf).filter((name) => name !== null))].sort();
  console.log(
    `lambda bundle: ${relative(process.cwd(), file)} ${(bytes / 1024).toFixed(1)} KiB (${bytes} bytes), ${inputs.length} modules`,
  );
  console.log(`  packages inside: ${packages.join(', ')}`);
}
