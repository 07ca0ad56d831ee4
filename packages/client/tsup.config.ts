import { defineConfig } from 'tsup';
import { libraryBuild } from '../../tooling/build-config/library-build';

export default defineConfig({
  ...libraryBuild,
  // @licence/core is bundled, code and types, so the published client has no @licence/* dependency:
  // a product author installs one tarball, and the client always runs the rules it was tested with
  // (README "Install"). Core's own dependencies (@noble/ed25519, @noble/hashes, tldts) stay
  // external: they are this package's `dependencies`, kept equal to core's by tooling/pack-test.
  noExternal: ['@licence/core'],
  dts: { resolve: ['@licence/core'] },
  // Keep `node:crypto`, `node:fs`...: a bundler building a product could resolve the bare `crypto`
  // name to a userland polyfill (as in @licence/service's build).
  removeNodeProtocol: false,
});
