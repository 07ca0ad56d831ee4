import { defineConfig } from 'tsup';
import { libraryBuild } from '../../tooling/build-config/library-build';

export default defineConfig({
  ...libraryBuild,
  // import.meta.url locates data/ at run time; tsup shims it in the CJS build.
  shims: true,
});
