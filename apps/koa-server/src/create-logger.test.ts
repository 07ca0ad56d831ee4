import { describe, expect, it } from 'vitest';
import { captureLogs } from '../test/capture-logs.js';

describe('createLogger (docs/protocol.md#privacy: no key, signing key or token in a log line)', () => {
  it('redacts the secret fields at the top level and two levels down', () => {
    const { logger, lines } = captureLogs('info');
    logger.info(
      {
        cle: 'ABCDE-FGHJK',
        token: 'tok-123',
        req: { headers: { authorization: 'Bearer tok-456' } },
        body: { cle: 'KLMNP' },
        config: { signingKey: 'c2VlZA==', adminToken: 'adm-789' },
        seed: 'c2VlZDI=',
        hint: 'HJK2',
      },
      'careless',
    );
    expect(lines).toHaveLength(1);
    const line = lines[0] ?? '';
    for (const secret of ['ABCDE', 'tok-123', 'tok-456', 'KLMNP', 'c2VlZA', 'adm-789', 'c2VlZDI'])
      expect(line).not.toContain(secret);
    expect(JSON.parse(line)).toMatchObject({
      cle: '[redacted]',
      hint: 'HJK2',
      req: { headers: { authorization: '[redacted]' } },
    });
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
