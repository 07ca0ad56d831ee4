import { randomBytes } from 'node:crypto';
import { createTestClock } from '@licence/http-vector-runner';
import type { TestClock } from '@licence/http-vector-runner';
import { loadSignatureVectors } from '@licence/vectors';
import { createLambdaHandler } from '../src/create-lambda-handler.js';
import type { LambdaHandler } from '../src/create-lambda-handler.js';
import { createJsonLogger } from '../src/json-logger.js';
import type { Environment } from '@licence/service';
import { adminEvent } from './events.js';

/**
 * The handler as the function runs it: configured from an environment of
 * docs/protocol.md#configuration (the TEST ONLY seed of signatures.json as LICENCE_SIGNING_KEY, a
 * database of a throwaway cluster as DATABASE_URL), on a clock the test moves, its JSON log lines
 * kept in memory.
 */

const keys = loadSignatureVectors().keys;
/** TEST ONLY (signatures.json): public on purpose, never used for real data. */
export const TEST_SEED_BASE64 = keys.primary.seed;
export const TEST_PUBLIC_KEY = keys.primary.publicKey;

export interface LambdaHarness {
  readonly handler: LambdaHandler;
  readonly env: Environment;
  readonly adminToken: string;
  readonly publicKey: string;
  readonly clock: TestClock;
  /** Every JSON line the handler logged. */
  readonly lines: string[];
  /** An admin call through the handler, with the token, that must succeed: its JSON object. */
  admin(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export interface LambdaHarnessOptions {
  readonly databaseUrl: string;
  readonly clockStartMs?: number;
  /** Extra or overriding variables. */
  readonly env?: Environment;
}

export function lambdaHarness(options: LambdaHarnessOptions): LambdaHarness {
  const adminToken = randomBytes(24).toString('base64url');
  const env: Environment = {
    DATABASE_URL: options.databaseUrl,
    LICENCE_SIGNING_KEY: TEST_SEED_BASE64,
    LICENCE_ADMIN_TOKEN: adminToken,
    LOG_LEVEL: 'debug',
    ...options.env,
  };
  const lines: string[] = [];
  const logger = createJsonLogger({ level: 'debug', write: (line) => lines.push(line) });
  const clock = createTestClock(options.clockStartMs ?? Date.now());
  const handler = createLambdaHandler({ env, logger, now: clock.now });
  return {
    handler,
    env,
    adminToken,
    publicKey: TEST_PUBLIC_KEY,
    clock,
    lines,
    admin: (method, path, body) => adminEvent(handler, adminToken, method, path, body),
    close: () => handler.close(),
  };
}
