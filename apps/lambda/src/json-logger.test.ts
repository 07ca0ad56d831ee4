import {
  CARELESS_LOG_FIELDS,
  CARELESS_LOG_SECRETS,
  linesHolding,
  REDACTED_CARELESS_FIELDS,
} from '@licence/http-vector-runner';
import { describe, expect, it } from 'vitest';
import { createJsonLogger } from './json-logger.js';

function capture(level: Parameters<typeof createJsonLogger>[0]['level']) {
  const lines: string[] = [];
  return { lines, logger: createJsonLogger({ level, write: (line) => lines.push(line), now: () => 1795342440000 }) };
}

describe('createJsonLogger (docs/protocol.md#privacy: no key, signing key or token in a log line)', () => {
  it("writes pino's fields: level number, time, the fields, msg", () => {
    const { lines, logger } = capture('info');
    logger.info({ route: '/api/licence', status: 200 }, 'request');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      { level: 30, time: 1795342440000, route: '/api/licence', status: 200, msg: 'request' },
    ]);
  });

  it('redacts the secret fields at the top level and two levels down, as the Koa server does', () => {
    const { lines, logger } = capture('debug');
    logger.warn(CARELESS_LOG_FIELDS, 'careless');
    expect(lines).toHaveLength(1);
    expect(linesHolding(lines, CARELESS_LOG_SECRETS)).toEqual([]);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ ...REDACTED_CARELESS_FIELDS, level: 40 });
  });

  it('filters by level; silent writes nothing', () => {
    const warn = capture('warn');
    warn.logger.debug({}, 'no');
    warn.logger.info({}, 'no');
    warn.logger.error({}, 'yes');
    expect(warn.lines).toHaveLength(1);
    const silent = capture('silent');
    silent.logger.error({}, 'no');
    expect(silent.lines).toEqual([]);
  });

  it('never throws on what a call carries: an Error, a BigInt, a cycle', () => {
    const { lines, logger } = capture('info');
    const cycle: Record<string, unknown> = {};
    cycle.self = { again: { deeper: cycle } };
    logger.error({ err: new TypeError('boom'), count: 10n }, 'odd');
    logger.error({ cycle }, 'cyclic');
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ err: { name: 'TypeError', message: 'boom' }, count: '10' });
    expect(JSON.parse(lines[1] ?? '')).toMatchObject({
      level: 50,
      msg: 'cyclic',
      logError: expect.stringContaining('circular'),
    });
  });
});
