// Child process of cross-process.test.ts: opens the SAME SQLite file as its sibling and logs
// verdicts of one product, to show that each line's activity count is added inside its own write
// (docs/protocol.md#activity), so two processes counting the same day lose no verdict.
// argv: <built module> <database file> <key id> <count>
import { pathToFileURL } from 'node:url';

const [modulePath, file, keyId, count] = process.argv.slice(2);
if (!modulePath || !file || !keyId || !count) {
  throw new Error('usage: log-worker.mjs <module> <file> <keyId> <count>');
}
const { openSqliteStore } = await import(pathToFileURL(modulePath).href);
const store = openSqliteStore({ file });

async function logAll() {
  const results = [];
  // Waves of 20 concurrent calls, each wave one group commit: the two processes' commits
  // interleave on the write lock, and every one of them adds to the same count rows.
  for (let start = 0; start < Number(count); start += 20) {
    const wave = Array.from({ length: Math.min(20, Number(count) - start) }, (_, i) =>
      store.logRequest({
        at: 1_790_000_000 + start + i,
        keyId,
        host: 'a.fr',
        ip: '203.0.113.7',
        outcome: (start + i) % 4 === 0 ? 'essai' : 'ok',
        produit: 'theme',
      }),
    );
    const settled = await Promise.allSettled(wave);
    results.push(...settled.map((s) => (s.status === 'fulfilled' ? 'logged' : `error: ${String(s.reason)}`)));
  }
  await store.close();
  return results;
}

// Wait for the parent's go, so both children start logging at the same moment.
process.once('message', () => {
  logAll().then(
    (results) => process.send({ results }, () => process.disconnect()),
    (error) => process.send({ error: String(error) }, () => process.disconnect()),
  );
});
process.send({ ready: true });
