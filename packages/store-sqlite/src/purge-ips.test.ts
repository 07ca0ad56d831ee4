import { describe, expect, it } from 'vitest';
import { openDatabase } from './open-database.js';
import { ipPurge, PURGE_CHUNK } from './purge-ips.js';

describe('ipPurge (docs/protocol.md#privacy)', () => {
  it('erases more rows than one chunk holds, and counts them all', async () => {
    const db = openDatabase(':memory:', undefined);
    const total = PURGE_CHUNK * 2 + 7;
    const insert = db.prepare<[number]>(
      "INSERT INTO request_log (at, key_id, host, ip) VALUES (?, NULL, 'a.fr', '203.0.113.1')",
    );
    db.transaction(() => {
      for (let i = 0; i < total + 3; i += 1) insert.run(i < total ? 100 : 200);
    })();
    const { purgeIps } = ipPurge(db);
    expect(await purgeIps(150)).toBe(total);
    expect(await purgeIps(150)).toBe(0);
    expect(await purgeIps(300)).toBe(3);
    db.close();
  });
});
