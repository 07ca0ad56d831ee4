import { createLambdaHandler } from './create-lambda-handler.js';
import { createWebhooksHandler } from './create-webhooks-handler.js';

/**
 * The function's entry point (`index.handler` of the bundle, template.yaml): configured from the
 * environment of docs/protocol.md#configuration. Nothing is opened here: the first invocation opens
 * the runtime, so a bad variable is answered and logged instead of failing the container's start.
 */
export const handler = createLambdaHandler({ env: process.env });

/**
 * The scheduled webhook deliveries (`index.webhooks`, template.yaml's LicenceWebhooksFunction,
 * docs/protocol.md#webhooks): the same bundle, another export, so one build serves both functions.
 * Nothing is opened here either: each function's container opens only the export it runs.
 */
export const webhooks = createWebhooksHandler({ env: process.env });
