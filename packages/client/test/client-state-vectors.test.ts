import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { clientStep, keyProblem, normalizeKey } from '@licence/core';
import { loadClientStateVectors } from '@licence/vectors';
import type { ClientStateCase } from '@licence/vectors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheFileName } from '../src/cache-file.js';
import { Licence } from '../src/licence.js';
import { fixNonceForTests } from '../src/request-nonce.js';
import { closedPortUrl, startFakeService } from './fake-service.js';
import type { FakeService } from './fake-service.js';

/**
 * Every case of client-states.json through the client's own code path: the case's
 * cache is written as the cache file, the client's clock reads the case's `now`, the case's
 * outcome is what a real HTTP server on loopback answers (or a refused connection, or a server
 * that never answers, given up on by an injected timeout), and the nonce is the case's.
 * Then `valide()` runs, and the verdict, its state, the calls made and the file left on disk are
 * compared with the case.
 */

const vectors = loadClientStateVectors();
/** A well-formed key (25 Crockford characters), for the cases about the cache, which hand none. */
const CLE = '0123456789ABCDEFGHJKMNPQR';

/**
 * Cases this client cannot be put in, each with its reason:
 * - a client without `produit`: ours always sends one (docs/protocol.md#product-and-nonce: our
 *   clients always send both); core's own suite runs these, for clients written without the
 *   extension;
 * - a call made during back-off: this client never calls then (it reads the file again under the
 *   lock, and sees the back-off); the case is run to check exactly that: no call, the cached
 *   verdict in grace, the file untouched.
 */
const WITHOUT_PRODUIT = (c: ClientStateCase) => c.expect.produit === undefined;
const CALL_DURING_BACKOFF = 'a failure called during back-off still counts';

/**
 * The client's timeout where giving up is what the case is about (the fake never answers): long
 * enough for the request to reach the fake on a busy machine (the fake counts it on arrival, and a
 * client that gave up before sending it would leave nothing to count), short enough to wait out.
 */
const HANG_TIMEOUT_MS = 1000;
/** Everywhere else the fake answers at once: a timeout that never decides the case, even under load. */
const CALL_TIMEOUT_MS = 10_000;

let service: FakeService;
let refused: string;

beforeAll(async () => {
  service = await startFakeService();
  refused = await closedPortUrl();
});
afterAll(async () => {
  await service.close();
});

describe('client-states.json through the client', () => {
  const runnable = vectors.cases.filter((c) => !WITHOUT_PRODUIT(c));

  it('runs every case but those a client with a produit never meets', () => {
    expect(vectors.cases.filter(WITHOUT_PRODUIT).map((c) => c.name)).toEqual([
      'fresh: a client without produit uses a verdict without produit',
      'failure for a client without produit: lapsed verdict has no produit',
    ]);
    expect(runnable.length).toBe(vectors.cases.length - 2);
    expect(runnable.map((c) => c.name)).toContain(CALL_DURING_BACKOFF);
    // The www.www. site (docs/protocol.md#hosts-in-clients): a call, a refresh, a refusal of the
    // host normalised twice, and a fresh cache.
    expect(runnable.filter((c) => c.host !== undefined).length).toBe(4);
    // docs/protocol.md#no-usable-key: keys that are none, and two that are, through the constructor.
    expect(runnable.filter((c) => 'cle' in c).length).toBeGreaterThanOrEqual(15);
  });

  it.each(runnable.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const dir = mkdtempSync(join(tmpdir(), 'licence-vector-'));
    try {
      await runCase(c, dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

async function runCase(c: ClientStateCase, dir: string): Promise<void> {
  const produit = c.expect.produit ?? '';
  // The key the case hands (any JSON value), or ours. An unusable one has no file of its own: the
  // case's cache is put where our key's would be, and must stay untouched.
  const cle = 'cle' in c ? c.cle : CLE;
  const usable = keyProblem(cle) === null;
  const file = join(dir, await cacheFileName(produit, usable ? normalizeKey(cle) : CLE, c.expect.hote));
  const original = c.cache === null ? null : JSON.stringify(c.cache);
  if (original !== null) writeFileSync(file, original, { mode: 0o600 });

  const outcome = c.outcome;
  let url = service.url;
  if (outcome?.type === 'failure') {
    if (outcome.reason === 'network') url = refused;
    else service.answer('hang');
  } else if (outcome?.type === 'response') {
    service.answer({
      status: outcome.status,
      ...(outcome.body === null ? {} : { body: JSON.stringify(outcome.body) }),
      ...(outcome.retryAfter === undefined || outcome.retryAfter === null
        ? {}
        : { headers: { 'retry-after': outcome.retryAfter } }),
    });
  } else {
    // No outcome: a call, if the client makes one, gets a 503 and the case only counts it.
    service.answer({ status: 503 });
  }
  const before = service.requests.length;
  const abandonedBefore = service.abandoned();
  const errors: Error[] = [];
  // docs/protocol.md#hosts-in-clients: the site's host as configured is sent as is; expect.hote is
  // its normalisation.
  const host = c.host ?? c.expect.hote;
  const licence = new Licence({
    cle: cle as string,
    cacheDir: dir,
    produit,
    publicKeys: vectors.trustedPublicKeys,
    url,
    host,
    clock: { now: () => c.now * 1000 },
    timeoutMs: outcome?.type === 'failure' && outcome.reason === 'timeout' ? HANG_TIMEOUT_MS : CALL_TIMEOUT_MS,
    onError: (error) => errors.push(error),
  });
  fixNonceForTests(licence, () => c.expect.nonce ?? 'nonce_de_ce-test_000000');
  expect(licence.hote).toBe(c.expect.hote);
  const runs = await licence.valide();
  const sent = service.requests.slice(before);
  // An unusable key is reported once, by what is wrong with it, never by its value.
  expect(errors.map((error) => error.message.split(':')[0])).toEqual(usable ? [] : ['cle']);

  if (c.name === CALL_DURING_BACKOFF) {
    // See above: the client keeps its back-off; what core does when a call happens anyway is
    // core's suite's business.
    const expected = clientStep({
      now: c.now,
      cache: c.cache,
      trustedPublicKeys: vectors.trustedPublicKeys,
      expect: { hote: c.expect.hote, produit },
    });
    expect(expected).toMatchObject({ action: 'use', state: 'grace', store: null });
    if (expected.action !== 'use') return;
    expect(sent).toEqual([]);
    expect(licence.verdict).toEqual({ state: expected.state, donnees: expected.donnees, runs: expected.runs });
    expect(readFileSync(file, 'utf8')).toBe(original);
    return;
  }

  const result = c.result;
  if (result.action === 'call') {
    // The client called, with the case's host as configured, product and a nonce, and nothing
    // else decided.
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]?.body ?? '')).toEqual({
      cle: normalizeKey(cle),
      url: host,
      produit,
      nonce: 'nonce_de_ce-test_000000',
    });
    return;
  }

  expect({ state: licence.verdict?.state, donnees: licence.verdict?.donnees, runs }).toEqual({
    state: result.state,
    donnees: result.donnees,
    runs: result.runs,
  });
  // A call was made exactly when the case has an outcome (none reaches a refused port), and the
  // key is usable (docs/protocol.md#no-usable-key: no_key calls nothing).
  const silent = outcome === undefined || (outcome.type === 'failure' && outcome.reason === 'network') || !usable;
  const reached = silent ? 0 : 1;
  expect(sent).toHaveLength(reached);
  if (outcome?.type === 'failure' && outcome.reason === 'timeout') {
    // The client gave up and closed the connection, with the service still silent.
    await expect.poll(() => service.abandoned(), { timeout: 10_000 }).toBe(abandonedBefore + 1);
  }

  if (result.store === null) {
    // Nothing written: the file is exactly what the case put there (or still absent), alone.
    expect(existsSync(file) ? readFileSync(file, 'utf8') : null).toBe(original);
    if (!usable) expect(readdirSync(dir)).toEqual(original === null ? [] : [basename(file)]);
    return;
  }
  expect(statSync(file).mode & 0o777).toBe(0o600);
  const written = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const { recu, ...record } = written;
  expect(record).toEqual(result.store);
  // `recu` (server-time.ts): this client's clock when the envelope arrived; none for a cached
  // envelope that came without one, none without an envelope.
  expect(recu).toBe(result.state === 'refreshed' ? c.now : undefined);
}
