// @licence/http-vector-runner: runs packages/vectors/cases/http.json against any server on
// loopback (tests only). This file only re-exports.

// The runner
export { buildRequest, checkAnswer, checkEnvelope, runHttpCase, substitute } from './vector-runner.js';
// core's, re-exported for the suites that already take their helpers from here
export { isRecord } from '@licence/core';
export type { CaseResult, SentRequest } from './vector-runner.js';
export { expectHttpCase } from './http-vector-case.js';
export { describeHttpVectors, EXPECTED_HTTP_CASES } from './describe-http-vectors.js';
export type { HttpVectorSuite, StartedVectorTarget } from './describe-http-vectors.js';
export type { LoggedVectorTarget, VectorTarget } from './vector-target.js';
export { PRODUCT_UA } from './product-user-agent.js';

// Talking to a server over loopback
export { adminCall, exchange, parseAnswers, send } from './http-client.js';
export type { HttpAnswer, RawExchange, SendOptions } from './http-client.js';

// What the tests around a runner share
export { createTestClock } from './test-clock.js';
export type { TestClock } from './test-clock.js';
export {
  CARELESS_LOG_FIELDS,
  CARELESS_LOG_SECRETS,
  keySpellings,
  linesHolding,
  REDACTED_CARELESS_FIELDS,
} from './log-secrets.js';
