import { describeHttpVectors } from '@licence/http-vector-runner';
import { startTestServer } from './test-server.js';

/**
 * Every case of packages/vectors/cases/http.json against the real Koa server over loopback: a
 * fresh server, SQLite file and rate limiter per case, the clock at `clockStart` (seconds; the
 * Clock port speaks ms), the admin API on. Every /api/ 200 is checked with core's verifyEnvelope
 * (vector-runner.ts).
 */

describeHttpVectors({
  title: 'http.json vectors over Koa, SQLite and loopback',
  start: (clockStartMs) => startTestServer({ clockStartMs }),
  provesRunner: true,
});
