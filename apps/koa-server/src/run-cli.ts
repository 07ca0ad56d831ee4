import pino from 'pino';
import type { DestinationStream } from 'pino';
import cluster from 'node:cluster';
import { configErrorLine, isAdminError } from '@licence/service';
import type { Environment } from '@licence/service';
import { runAdminAction } from './admin-command.js';
import { adminCommand } from './cli-commands.js';
import { assertNever } from './assert-never.js';
import type { AdminAction } from './cli-args.js';
import { parseCliArgs } from './cli-args.js';
import { loadConfig } from './config.js';
import type { ServerConfig } from './config.js';
import { createLogger } from './create-logger.js';
import { formatHuman } from './format-human.js';
import { newAdminToken } from './admin-token.js';
import { formatKeygen, keygen } from './keygen.js';
import { openAdminRuntime } from './open-runtime.js';
import { listenForShutdown } from './shutdown-signals.js';
import type { RunningServer } from './start-server.js';
import { startServer } from './start-server.js';
import { errorText } from './startup-error.js';
import { serveWorkers } from './serve-workers.js';
import { serveAsWorker } from './worker-process.js';

/** What the CLI reads and writes; the real process's by default, a test's otherwise. */
export interface CliIo {
  readonly env: Environment;
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Where log lines go: stdout for `serve`, stderr for the other commands, unless given. */
  readonly logDestination?: DestinationStream;
}

export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_USAGE = 2;

/**
 * Runs one `licence` command and resolves its exit code (`serve` resolves once shut down).
 * Every failure is ONE line on stderr: exit 1 for an error, 2 for a usage mistake.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const command = parseCliArgs(argv);
  switch (command.kind) {
    case 'help':
      io.stdout(command.text);
      return EXIT_OK;
    case 'usage':
      io.stderr(`licence: ${command.message}\n`);
      return EXIT_USAGE;
    case 'keygen':
      return guarded(io, () => {
        const result = keygen({
          printSeed: command.printSeed,
          cwd: io.cwd,
          ...(command.out === undefined ? {} : { out: command.out }),
        });
        io.stdout(command.json ? `${JSON.stringify(result)}\n` : formatKeygen(result));
        return Promise.resolve(EXIT_OK);
      });
    case 'token': {
      // docs/protocol.md#administration: the token alone on stdout, so `$(pnpm -s licence token)`
      // can set LICENCE_ADMIN_TOKEN.
      const token = newAdminToken();
      io.stdout(command.json ? `${JSON.stringify({ token })}\n` : `${token}\n`);
      return EXIT_OK;
    }
    case 'serve':
    case 'admin': {
      const loaded = loadConfig(io.env, io.cwd);
      if (!loaded.ok) {
        // docs/protocol.md#configuration: one clear line per bad value, each naming its variable.
        for (const error of loaded.errors) io.stderr(`licence: ${configErrorLine(error)}\n`);
        return EXIT_ERROR;
      }
      if (command.kind === 'serve') return guarded(io, () => serve(loaded.value, io));
      return guarded(io, () => runAdmin(command.action, command.json, loaded.value, io));
    }
    default:
      return assertNever(command);
  }
}

async function serve(config: ServerConfig, io: CliIo): Promise<number> {
  // LICENCE_WORKERS >= 2: this process is the primary, or one of its workers (README "Workers").
  if (config.workers > 1) {
    return cluster.isPrimary ? serveWorkers(config, io) : serveAsWorker(config, io, process, cluster.worker?.id ?? 0);
  }
  const logger = createLogger({
    level: config.logLevel,
    ...(io.logDestination === undefined ? {} : { destination: io.logDestination }),
  });
  const signals = listenForShutdown(logger);
  let running: RunningServer;
  try {
    running = await startServer({ config, logger, print: io.stderr });
  } catch (error) {
    // A listen failure is already a StartupError naming HOST or PORT (listen-error.ts).
    signals.dispose();
    throw error;
  }
  await signals.received;
  try {
    await running.close();
  } finally {
    signals.dispose();
  }
  return EXIT_OK;
}

async function runAdmin(action: AdminAction, json: boolean, config: ServerConfig, io: CliIo): Promise<number> {
  const logger = createLogger({
    // Admin commands print data on stdout: their log lines go to stderr, and only warnings
    // unless LOG_LEVEL asks for more.
    level: config.logLevelSet ? config.logLevel : 'warn',
    destination: io.logDestination ?? pino.destination({ dest: 2, sync: true }),
  });
  // docs/protocol.md#buyer-links: a buyer link is signed with the service's key, which only that
  // command reads.
  const runtime = await openAdminRuntime(config, { logger, signer: adminCommand(action.name)?.signs === true });
  let result: unknown;
  try {
    result = await runAdminAction(runtime.admin, action, config.publicUrl);
  } catch (error) {
    if (!isAdminError(error)) throw error;
    // Key administration's own message, no HTTP status: it never holds a key (hint only,
    // docs/protocol.md#key-lifecycle).
    io.stderr(`licence: ${action.name}: ${error.message}\n`);
    return EXIT_ERROR;
  } finally {
    await runtime.close();
  }
  printResult(action, json, result, io);
  return EXIT_OK;
}

/**
 * The admin API's answer, as JSON or as `field: value` lines, and what a human must know about it:
 * a secret shown once alone on stdout (so `$(pnpm -s licence ...)` takes it whole), and the notice
 * the command's declaration gives (a key or a secret shown only this once).
 */
function printResult(action: AdminAction, json: boolean, result: unknown, io: CliIo): void {
  if (json) {
    io.stdout(`${JSON.stringify(result)}\n`);
    return;
  }
  const command = adminCommand(action.name)?.command;
  const alone = command?.alone?.(action, result);
  if (alone !== undefined) {
    io.stdout(`${alone.out}\n`);
    io.stderr(`licence: ${alone.note}\n`);
    return;
  }
  io.stdout(formatHuman(result));
  if (command?.notice !== undefined) io.stderr(`licence: ${command.notice}\n`);
}

/** Runs a command; a StartupError or any other failure becomes one stderr line and exit 1. */
async function guarded(io: CliIo, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    io.stderr(`licence: ${errorText(error)}\n`);
    return EXIT_ERROR;
  }
}
