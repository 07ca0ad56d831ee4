import { buildWithTsup } from '../../../tooling/build-config/build-with-tsup';

/**
 * vitest globalSetup: the multi-process tests run `node` on a script that imports the built
 * client (`dist/`), as a product would, so dist must match the sources.
 */
export default function setup(): void {
  buildWithTsup(new URL('..', import.meta.url));
}
