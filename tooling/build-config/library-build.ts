/**
 * The tsup options every library of the repository builds with: ESM and CommonJS with their
 * types, from `src/index.ts`, into a `dist/` emptied first, for the Node lines CI runs (20 and
 * up: ES2022). A package's tsup.config.ts spreads it and adds what is its own:
 *
 *   export default defineConfig({ ...libraryBuild, shims: true });
 *
 * Plain data, typed without importing tsup (this folder has no node_modules): tsup's
 * `defineConfig` checks the result in each package.
 */
export const libraryBuild: {
  readonly entry: string[];
  readonly format: ('esm' | 'cjs')[];
  readonly dts: boolean;
  readonly clean: boolean;
  readonly target: 'es2022';
} = {
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  target: 'es2022',
};
