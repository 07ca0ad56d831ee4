// Child process of cross-process.test.ts: opens the SAME SQLite file as its sibling and binds
// domains on one key, to show that binding is atomic across processes (docs/protocol.md#verdict),
// not only inside one. Plain JavaScript so Node runs it without a TypeScript loader.
// argv: <built module> <database file> <key id> <domain prefix> <count>
import { pathToFileURL } from 'node:url';

const [modulePath, file, keyId, prefix, count] = process.argv.slice(2);
if (!modulePath || !file || !keyId || !prefix || !count) {
  throw new Error('usage: bind-worker.mjs <module> <file> <keyId> <prefix> <count>');
}
const { openSqliteStore } = await import(pathToFileURL(modulePath).href);
const store = openSqliteStore({ file });

async function bindAll() {
  const domains = Array.from({ length: Number(count) }, (_, i) => `${prefix}-${i}.fr`);
  const results = [];
  // Waves of 10 concurrent calls: the calls of one wave share one group commit (one
  // transaction), so each process commits several times and the two interleave on the lock.
  for (let start = 0; start < domains.length; start += 10) {
    const wave = domains
      .slice(start, start + 10)
      .map((domain, i) => store.bindDomain(keyId, domain, 3, 1_790_000_000 + start + i));
    const settled = await Promise.allSettled(wave);
    results.push(...settled.map((s) => (s.status === 'fulfilled' ? s.value : `error: ${String(s.reason)}`)));
  }
  await store.close();
  return results;
}

// Wait for the parent's go, so both children start binding at the same moment.
process.once('message', () => {
  bindAll().then(
    (results) => process.send({ results }, () => process.disconnect()),
    (error) => process.send({ error: String(error) }, () => process.disconnect()),
  );
});
process.send({ ready: true });
