import type { KeyKind, KeyStatus } from '@licence/core';
import type { BoundDomain, Installation, NewKey, ProductRecord, RequestLogEntry, Store, StoredKey } from './ports.js';

/**
 * A complete Store in process memory: for tests, for a one-off demo, and as the reference the
 * other stores are held to (the shared contract suite runs against it).
 *
 * Every method does its reads and writes without an `await` in between, so each one is atomic on
 * Node's single thread, the same guarantee a SQL transaction gives (docs/protocol.md#verdict: two
 * racing first calls on a one-domain key bind exactly one). Records handed out are fresh frozen
 * copies: a caller can never change the store behind its back. Nothing survives the process.
 */

interface KeyRow {
  readonly id: string;
  readonly hash: string;
  readonly hint: string;
  readonly produit: string;
  readonly kind: KeyKind;
  status: KeyStatus;
  readonly sites: number;
  readonly expiresAt: number | null;
  endedAt: number | null;
  reason: string | null;
  replacedBy: string | null;
  readonly createdAt: number;
  readonly domains: { domain: string; firstSeen: number; lastSeen: number }[];
}

interface LogRow {
  readonly at: number;
  readonly keyId: string | null;
  readonly host: string;
  /** null once erased by the purge (docs/protocol.md#privacy). */
  ip: string | null;
}

export interface MemoryStore extends Store {
  /** The request log as kept (erased IPs are null); for tests. */
  readonly requestLog: () => readonly Readonly<LogRow>[];
}

export function createMemoryStore(): MemoryStore {
  const products = new Map<string, ProductRecord>();
  const keys = new Map<string, KeyRow>();
  const byHash = new Map<string, string>();
  const log: LogRow[] = [];
  let nextId = 1;
  let closed = false;

  const open = (): void => {
    if (closed) throw new Error('memory store: closed');
  };
  // Every method answers through a promise, as a real store does, and rejects (never throws
  // synchronously) when it cannot answer.
  const run = <T>(work: () => T): Promise<T> => {
    try {
      open();
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };

  const opensOf = (row: KeyRow): string[] => {
    if (row.kind !== 'dev') return [row.produit];
    // docs/protocol.md#key-lifecycle: a development key opens every product of its author.
    const author = products.get(row.produit)?.author;
    if (author === undefined) return [row.produit];
    return [...products.values()].filter((product) => product.author === author).map((product) => product.id);
  };

  const domainsOf = (row: KeyRow): BoundDomain[] => row.domains.map((domain) => Object.freeze({ ...domain }));

  const toStored = (row: KeyRow): StoredKey =>
    Object.freeze({
      id: row.id,
      hash: row.hash,
      hint: row.hint,
      produit: row.produit,
      kind: row.kind,
      status: row.status,
      sites: row.sites,
      expiresAt: row.expiresAt,
      endedAt: row.endedAt,
      reason: row.reason,
      replacedBy: row.replacedBy,
      createdAt: row.createdAt,
      opens: Object.freeze(opensOf(row)),
      domains: Object.freeze(domainsOf(row)),
    });

  const insertRow = (key: NewKey, domains: readonly BoundDomain[]): KeyRow => {
    if (byHash.has(key.hash)) throw new Error('memory store: a key with this hash already exists');
    const row: KeyRow = {
      id: String(nextId),
      hash: key.hash,
      hint: key.hint,
      produit: key.produit,
      kind: key.kind,
      status: 'active',
      sites: key.sites,
      expiresAt: key.expiresAt,
      endedAt: null,
      reason: null,
      replacedBy: null,
      createdAt: key.createdAt,
      domains: domains.map((domain) => ({ ...domain })),
    };
    nextId += 1;
    keys.set(row.id, row);
    byHash.set(row.hash, row.id);
    return row;
  };

  const rowOf = (keyId: string): KeyRow => {
    const row = keys.get(keyId);
    if (row === undefined) throw new Error(`memory store: no key with id ${JSON.stringify(keyId)}`);
    return row;
  };

  return {
    findKeyByHash: (hash) =>
      run(() => {
        const id = byHash.get(hash);
        const row = id === undefined ? undefined : keys.get(id);
        return row === undefined ? null : toStored(row);
      }),

    findKeyById: (id) =>
      run(() => {
        const row = keys.get(id);
        return row === undefined ? null : toStored(row);
      }),

    bindDomain: (keyId, domain, sites, now) =>
      run(() => {
        const row = rowOf(keyId);
        const bound = row.domains.find((entry) => entry.domain === domain);
        if (bound !== undefined) {
          bound.lastSeen = Math.max(bound.lastSeen, now);
          return 'already' as const;
        }
        if (row.domains.length >= sites) return 'full' as const;
        row.domains.push({ domain, firstSeen: now, lastSeen: now });
        return 'bound' as const;
      }),

    touchDomain: (keyId, domain, now) =>
      run(() => {
        const bound = rowOf(keyId).domains.find((entry) => entry.domain === domain);
        if (bound !== undefined) bound.lastSeen = Math.max(bound.lastSeen, now);
      }),

    logRequest: (entry: RequestLogEntry) =>
      run(() => {
        log.push({ at: entry.at, keyId: entry.keyId, host: entry.host, ip: entry.ip });
      }),

    addProduct: (product) =>
      run(() => {
        if (products.has(product.id)) return 'exists' as const;
        products.set(product.id, Object.freeze({ ...product }));
        return 'created' as const;
      }),

    getProduct: (id) => run(() => products.get(id) ?? null),

    insertKey: (key, domains = []) =>
      run(() => {
        if (!products.has(key.produit)) return { result: 'no-product' as const };
        if (key.kind === 'dev') {
          for (const row of keys.values()) {
            if (row.produit === key.produit && row.kind === 'dev' && row.status === 'active') {
              return { result: 'dev-exists' as const };
            }
          }
        }
        const unique = [...new Set(domains)];
        const row = insertRow(
          key,
          unique.map((domain) => ({ domain, firstSeen: key.createdAt, lastSeen: key.createdAt })),
        );
        return { result: 'created' as const, id: row.id };
      }),

    replaceKey: (oldId, status, newKey, domains, now) =>
      run(() => {
        const old = keys.get(oldId);
        if (old === undefined || old.status !== 'active') return { result: 'not-active' as const };
        const carried = new Map(old.domains.map((entry) => [entry.domain, entry]));
        const unique = [...new Set(domains)];
        const row = insertRow(
          newKey,
          unique.map((domain) => {
            const kept = carried.get(domain);
            return kept === undefined ? { domain, firstSeen: now, lastSeen: now } : { ...kept };
          }),
        );
        old.status = status;
        old.endedAt = now;
        old.replacedBy = row.id;
        return { result: 'replaced' as const, id: row.id };
      }),

    revokeKey: (id, reason, now) =>
      run(() => {
        const row = keys.get(id);
        if (row === undefined || row.status !== 'active') return 'not-active' as const;
        row.status = 'revocation';
        row.endedAt = now;
        row.reason = reason;
        return 'revoked' as const;
      }),

    installations: (productId) =>
      run(() => {
        const found: Installation[] = [];
        for (const row of keys.values()) {
          if (row.produit !== productId) continue;
          found.push(
            Object.freeze({
              keyId: row.id,
              hint: row.hint,
              kind: row.kind,
              status: row.status,
              domains: Object.freeze(domainsOf(row)),
            }),
          );
        }
        return found;
      }),

    purgeIps: (before) =>
      run(() => {
        let erased = 0;
        for (const entry of log) {
          if (entry.at < before && entry.ip !== null) {
            entry.ip = null;
            erased += 1;
          }
        }
        return erased;
      }),

    ping: () => run(() => undefined),

    close: () => {
      closed = true;
      return Promise.resolve();
    },

    requestLog: () => log.map((entry) => Object.freeze({ ...entry })),
  };
}
