import { buildWithTsup } from '../../../tooling/build-config/build-with-tsup';

/**
 * vitest globalSetup: the CLI tests run `node dist/cli.js` as a child process, the way users run
 * it, so dist must match the sources.
 */
export default function setup(): void {
  buildWithTsup(new URL('..', import.meta.url));
}
