import type { HttpCase } from '@licence/vectors';
import { expect } from 'vitest';
import { keySpellings, linesHolding } from './log-secrets.js';
import { runHttpCase } from './vector-runner.js';
import type { LoggedVectorTarget } from './vector-target.js';

/**
 * One case of http.json against a running server, whatever its backend and adapter: every step as
 * the vector says (vector-runner.ts, every /api/ 200 verified), and docs/protocol.md#privacy: no
 * key, author token or webhook secret the case was issued, and not the admin token, in any log line. For vitest
 * suites only (vitest is external to this package's build: the caller's own copy runs the
 * assertions).
 */
export async function expectHttpCase(vector: HttpCase, server: LoggedVectorTarget): Promise<void> {
  const { failures, secrets: issued } = await runHttpCase(vector, server);
  expect(failures).toEqual([]);
  const secrets = [...issued.flatMap(keySpellings), ...(server.adminToken === null ? [] : [server.adminToken])];
  expect(server.lines.length).toBeGreaterThan(0);
  expect(linesHolding(server.lines, secrets)).toEqual([]);
}
