import { bundleLambda } from '../scripts/bundle.mjs';

/** vitest globalSetup: dist/lambda/index.mjs from the current sources (scripts/bundle.mjs, as `pnpm build`). */
export default async function setup(): Promise<void> {
  await bundleLambda();
}
