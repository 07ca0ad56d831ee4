import { CARELESS_LOG_FIELDS, CARELESS_LOG_SECRETS, REDACTED_CARELESS_FIELDS } from '@licence/http-vector-runner';
import { describe, expect, it } from 'vitest';
import { captureLogs, linesHolding } from '../test/capture-logs.js';

describe('createLogger (docs/protocol.md#privacy: no key, signing key or token in a log line)', () => {
  it('redacts the secret fields at the top level and two levels down', () => {
    const { logger, lines } = captureLogs('info');
    logger.info(CARELESS_LOG_FIELDS, 'careless');
    expect(lines).toHaveLength(1);
    expect(linesHolding(lines, CARELESS_LOG_SECRETS)).toEqual([]);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject(REDACTED_CARELESS_FIELDS);
  });

  it('writes JSON lines without pid or hostname, at the configured level', () => {
    const { logger, lines } = captureLogs('warn');
    logger.info({ a: 1 }, 'hidden');
    logger.warn({ a: 2 }, 'shown');
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
    expect(entry).toMatchObject({ level: 40, a: 2, msg: 'shown' });
    expect(entry).not.toHaveProperty('pid');
    expect(entry).not.toHaveProperty('hostname');
  });
});
