// @licence/koa-server: the Koa adapter, the embedded default and the `licence` CLI. This file
// only re-exports.

// The adapter (CONTRIBUTING.md#architecture): three steps, as a middleware and as a whole app
export { createApp } from './create-app.js';
export type { CreateAppOptions } from './create-app.js';
export { licenceMiddleware } from './licence-middleware.js';
export type { LicenceMiddlewareOptions } from './licence-middleware.js';
export { toServiceRequest, lowerCaseHeaders } from './to-service-request.js';
export { applyServiceResponse } from './apply-service-response.js';
export { BodyAbortedError, readBody } from './read-body.js';
export type { BodySource } from './read-body.js';

// Configuration (docs/protocol.md#configuration)
export { DEFAULT_DATA_DIR, DEFAULT_HOST, DEFAULT_PORT, loadConfig } from './config.js';
export type { ConfigResult, DatabaseConfig, ServerConfig, SigningKeySource } from './config.js';

// Running the server: embedded default, logs, purge, shutdown
export { ensureDataDir, prepareData } from './embedded-default.js';
export { createSeedFile, readSeedFile } from './seed-file.js';
export { createLogger } from './create-logger.js';
export { openAdminRuntime, openRuntime } from './open-runtime.js';
export type { Runtime } from './open-runtime.js';
export { startServer } from './start-server.js';
export type { RunningServer, StartServerOptions } from './start-server.js';
// The HTTP server startServer runs: connection caps, timeouts, raw problem answers (docs/protocol.md#limits)
export { createHttpServer, DEFAULT_TIMEOUTS } from './http-server.js';
export type { HttpServerOptions, HttpTimeouts, LicenceHttpServer } from './http-server.js';
export { DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS_PER_IP } from './connection-limits.js';
export type { ConnectionLimits } from './connection-limits.js';
export { startPurgeTimer } from './purge-timer.js';
// LICENCE_WORKERS >= 2 (README "Workers"): the rate limit on SQLite, shared through the primary process
export { createPrimaryRateLimiter } from './primary-rate-limiter.js';
export type { PrimaryRateLimiter, WorkerEnd } from './primary-rate-limiter.js';
export { createWorkerRateLimiter, PRIMARY_TIMEOUT_MS } from './worker-rate-limiter.js';
export type { PrimaryEnd, WorkerRateLimiterOptions } from './worker-rate-limiter.js';
export { StartupError } from './startup-error.js';

// The CLI (docs/protocol.md#administration)
export { runCli } from './run-cli.js';
export type { CliIo } from './run-cli.js';
export { parseCliArgs } from './cli-args.js';
export type { AdminAction, CliCommand } from './cli-args.js';
