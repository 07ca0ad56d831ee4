#!/usr/bin/env node
// The `licence` command (`pnpm licence ...` from the repository root). The program is the build's
// dist/cli.js; this small file exists before any build, so that pnpm links the command at install
// time (it skips a bin whose target is missing) and a missing build is one clear line.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (existsSync(cli)) {
  await import(cli.href);
} else {
  process.stderr.write('licence: the server is not built yet; run `pnpm build` first\n');
  process.exitCode = 1;
}
