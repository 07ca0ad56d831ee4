import { defineConfig } from 'tsup';
import { libraryBuild } from '../../tooling/build-config/library-build';

export default defineConfig({
  ...libraryBuild,
  // import.meta.url locates better-sqlite3 for the checkpoint thread (wal-checkpointer.ts); tsup
  // shims it in the CJS build.
  shims: true,
});
