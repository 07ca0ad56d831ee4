import { errorMessage } from '@licence/core';
import { createLambdaHandler } from './create-lambda-handler.js';
import { createJsonLogger } from './json-logger.js';
import { startLogLevel } from './lambda-config.js';
import { startLocalRunner } from './local-runner.js';

/**
 * `pnpm --filter @licence/lambda local`: the function on this machine, configured exactly as on
 * AWS (DATABASE_URL, LICENCE_SIGNING_KEY or LICENCE_SIGNING_KEY_FILE, LICENCE_ADMIN_TOKEN,
 * TRUST_PROXY, LOG_LEVEL), served over HTTP on HOST:PORT (the names and defaults of
 * docs/protocol.md#configuration: 127.0.0.1:8080), each request as an HTTP API event. For trying
 * the function before deploying it; not a production server (that is `licence serve`).
 */
async function main(): Promise<void> {
  const logger = createJsonLogger({ level: startLogLevel(process.env) });
  const handler = createLambdaHandler({ env: process.env, logger });
  const port = Number(process.env.PORT ?? '8080');
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`PORT: expected an integer 0..65535, got "${process.env.PORT ?? ''}"\n`);
    process.exitCode = 1;
    return;
  }
  const runner = await startLocalRunner({ handler, host: process.env.HOST ?? '127.0.0.1', port, logger });
  process.stderr.write(`licence Lambda handler (local runner, HTTP API v2 events) at ${runner.url}\n`);
  const stop = (): void => {
    void runner
      .close()
      .then(() => handler.close())
      .catch((error: unknown) => process.stderr.write(`closing: ${errorMessage(error)}\n`));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`local runner: ${errorMessage(error)}\n`);
  process.exitCode = 1;
});
