import { describe, expect, it } from 'vitest';
import { memoryRequestLog } from './memory-request-log.js';
import { createMemoryState, memoryRunner } from './memory-state.js';

describe('memoryRequestLog (docs/protocol.md#privacy)', () => {
  it('deletes the entries logged before the cut-off, once, and keeps the later ones in order', async () => {
    const state = createMemoryState();
    const log = memoryRequestLog(state, memoryRunner(state));
    await log.logRequest({ at: 100, keyId: null, host: 'a.fr', ip: '203.0.113.1' });
    await log.logRequest({ at: 200, keyId: null, host: 'b.fr', ip: '203.0.113.2' });
    await log.logRequest({ at: 150, keyId: '1', host: 'c.fr', ip: '203.0.113.3' });
    await log.logRequest({ at: 300, keyId: null, host: 'd.fr', ip: '203.0.113.4' });
    expect(await log.purgeRequestLog(200)).toBe(2);
    expect(await log.purgeRequestLog(200)).toBe(0);
    expect(log.requestLog()).toEqual([
      { at: 200, keyId: null, host: 'b.fr', ip: '203.0.113.2' },
      { at: 300, keyId: null, host: 'd.fr', ip: '203.0.113.4' },
    ]);
    expect(await log.purgeRequestLog(301)).toBe(2);
    expect(log.requestLog()).toEqual([]);
  });
});
