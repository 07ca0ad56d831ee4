import { describe, expect, it } from 'vitest';
import { memoryActivity } from './activity.js';
import { memoryRequestLog } from './request-log.js';
import { createMemoryState, memoryRunner } from './state.js';

describe('memoryRequestLog (docs/protocol.md#privacy)', () => {
  it('deletes the entries logged before the cut-off, once, and keeps the later ones in order', async () => {
    const state = createMemoryState();
    const log = memoryRequestLog(state, memoryRunner(state));
    const unknown = { keyId: null, outcome: 'inconnue', produit: null } as const;
    await log.logRequest({ at: 100, host: 'a.fr', ip: '203.0.113.1', ...unknown });
    await log.logRequest({ at: 200, host: 'b.fr', ip: '203.0.113.2', ...unknown });
    await log.logRequest({ at: 150, keyId: '1', host: 'c.fr', ip: '203.0.113.3', outcome: 'ok', produit: 'theme' });
    await log.logRequest({ at: 300, host: 'd.fr', ip: '203.0.113.4', ...unknown });
    expect(await log.purgeRequestLog(200)).toBe(2);
    expect(await log.purgeRequestLog(200)).toBe(0);
    expect(log.requestLog()).toEqual([
      { at: 200, keyId: null, host: 'b.fr', ip: '203.0.113.2', outcome: 'inconnue' },
      { at: 300, keyId: null, host: 'd.fr', ip: '203.0.113.4', outcome: 'inconnue' },
    ]);
    expect(await log.purgeRequestLog(301)).toBe(2);
    expect(log.requestLog()).toEqual([]);
  });

  it('counts each line in its product, day and outcome, and drops emptied products at the purge', async () => {
    const state = createMemoryState();
    const run = memoryRunner(state);
    const log = memoryRequestLog(state, run);
    const line = { keyId: '1', host: 'a.fr', ip: '203.0.113.1', produit: 'theme' } as const;
    await log.logRequest({ ...line, at: 86400 + 5, outcome: 'ok' });
    await log.logRequest({ ...line, at: 86400 + 6, outcome: 'ok' });
    await log.logRequest({ ...line, at: 2 * 86400, outcome: 'expiree' });
    expect(await memoryActivity(state, run).activity('theme', 0, 9)).toEqual([
      { day: 1, outcome: 'ok', count: 2 },
      { day: 2, outcome: 'expiree', count: 1 },
    ]);
    await log.purgeRequestLog(3 * 86400);
    expect(state.activity.size).toBe(0);
  });
});
