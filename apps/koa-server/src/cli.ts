#!/usr/bin/env node
// The `licence` command (docs/protocol.md#administration). All the logic is in run-cli.ts; this
// entry only wires the real process to it. (esbuild keeps this hashbang line at the top of
// dist/cli.js.)
import { errorMessage } from '@licence/core';
import { runCli } from './run-cli.js';

runCli(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`licence: ${errorMessage(error)}\n`);
    process.exitCode = 1;
  },
);
