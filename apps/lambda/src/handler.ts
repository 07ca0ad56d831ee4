import { createLambdaHandler } from './create-lambda-handler.js';

/**
 * The function's entry point (`index.handler` of the bundle, template.yaml): configured from the
 * environment of docs/protocol.md#configuration. Nothing is opened here: the first invocation opens
 * the runtime, so a bad variable is answered and logged instead of failing the container's start.
 */
export const handler = createLambdaHandler({ env: process.env });
