// @licence/lambda: the AWS Lambda adapter (API Gateway REST and HTTP API, Function URLs, ALB).
// This file only re-exports; the deployed entry point is handler.ts (bundled to dist/lambda/index.mjs).

// The handler and its three steps (CONTRIBUTING.md#architecture)
export { createLambdaHandler } from './create-lambda-handler.js';
export type { CreateLambdaHandlerOptions, LambdaEnvironmentOptions } from './create-lambda-handler.js';
export type { LambdaHandler, LambdaServiceOptions, PurgeResult } from './create-lambda-handler.js';
export { classifyEvent, isScheduledEvent } from './lambda-event.js';
export type { ClassifiedEvent, EventKind, LambdaHttpEvent } from './lambda-event.js';
export { clientAddress, requestBody, requestHeaders, requestMethod } from './to-service-request.js';
export { requestPath, toServiceRequest } from './to-service-request.js';
export { hasMultiValueHeaders, statusDescription, toLambdaResult } from './to-lambda-result.js';
export type { LambdaHttpResult } from './to-lambda-result.js';
export { faultResponse } from './fault-response.js';

// The scheduled webhook deliveries (docs/protocol.md#webhooks): the bundle's `webhooks` export
export { createWebhooksHandler, WEBHOOKS_LOCAL_BUDGET_MS } from './create-webhooks-handler.js';
export type { CreateWebhooksHandlerOptions, WebhooksContext } from './create-webhooks-handler.js';
export type { WebhooksHandler, WebhooksResult } from './create-webhooks-handler.js';
export { DRAIN_MARGIN_MS, drainOutbox } from './drain-outbox.js';
export type { DrainOptions, DrainResult } from './drain-outbox.js';
export { openWebhooksRuntime } from './open-webhooks-runtime.js';
export type { OpenWebhooksRuntimeOptions, WebhooksRuntime } from './open-webhooks-runtime.js';
export { holdRuntime } from './runtime-holder.js';
export type { RuntimeHolder } from './runtime-holder.js';

// Configuration (docs/protocol.md#configuration) and the runtime a container keeps
export { loadLambdaConfig, loadWebhooksConfig, startLogLevel } from './lambda-config.js';
export type { LambdaConfig, LambdaConfigResult, SigningKeySource, WebhooksConfig } from './lambda-config.js';
export { LAMBDA_POOL_MAX, logRuntimeOpenError, openLambdaRuntime, RuntimeOpenError } from './open-lambda-runtime.js';
export type { LambdaRuntime, OpenLambdaRuntimeOptions } from './open-lambda-runtime.js';
export { createJsonLogger } from './json-logger.js';

// The local runner: the handler over HTTP on loopback, as an HTTP API would call it
export { LOCAL_RUNNER_MAX_BODY_BYTES, startLocalRunner, toHttpApiEvent } from './local-runner.js';
export type { LocalRunner, LocalRunnerOptions } from './local-runner.js';
