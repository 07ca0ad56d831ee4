import { describe, expect, it } from 'vitest';
import { memoryRequestLog } from './memory-request-log.js';
import { createMemoryState, memoryRunner } from './memory-state.js';

describe('memoryRequestLog (docs/protocol.md#privacy)', () => {
  it('erases IPs logged before the cut-off, once, and keeps the rest of the entry', async () => {
    const state = createMemoryState();
    const log = memoryRequestLog(state, memoryRunner(state));
    await log.logRequest({ at: 100, keyId: null, host: 'a.fr', ip: '203.0.113.1' });
    await log.logRequest({ at: 200, keyId: null, host: 'b.fr', ip: '203.0.113.2' });
    expect(await log.purgeIps(200)).toBe(1);
    expect(await log.purgeIps(200)).toBe(0);
    expect(log.requestLog()).toEqual([
      { at: 100, keyId: null, host: 'a.fr', ip: null },
      { at: 200, keyId: null, host: 'b.fr', ip: '203.0.113.2' },
    ]);
  });
});
