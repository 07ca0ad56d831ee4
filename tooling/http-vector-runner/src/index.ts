// @licence/http-vector-runner: runs packages/vectors/cases/http.json against any server on
// loopback (tests only). This file only re-exports.

// The runner
export { buildRequest, checkAnswer, checkEnvelope, isRecord, runHttpCase, substitute } from './vector-runner.js';
export type { CaseResult, SentRequest } from './vector-runner.js';
export { expectHttpCase } from './http-vector-case.js';
export type { LoggedVectorTarget, VectorTarget } from './vector-target.js';
export { PRODUCT_UA } from './product-user-agent.js';

// Talking to a server over loopback
export { adminCall, exchange, parseAnswers, send } from './http-client.js';
export type { HttpAnswer, RawExchange, SendOptions } from './http-client.js';

// What the tests around a runner share
export { createTestClock } from './test-clock.js';
export type { TestClock } from './test-clock.js';
export { keySpellings, linesHolding } from './log-secrets.js';
