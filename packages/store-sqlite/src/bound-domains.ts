import type Database from 'better-sqlite3';
import { requireKeyId } from '@licence/service';
import type { Store } from '@licence/service';
import { parseRowId } from './row-id.js';
import type { DomainRow } from './rows.js';
import type { WebhookOutbox } from './webhook-outbox.js';
import type { WriteBatcher } from './write-batcher.js';

/** The statements on `bound_domains`, prepared once; the key reads and writes use them too. */
export interface BoundDomainStatements {
  readonly ofKey: Database.Statement<[number], DomainRow>;
  readonly count: Database.Statement<[number], { n: number }>;
  readonly nextPosition: Database.Statement<[number], { p: number }>;
  readonly touch: Database.Statement<[number, number, string]>;
  readonly insert: Database.Statement<[number, string, number, number, number]>;
}

export function boundDomainStatements(db: Database.Database): BoundDomainStatements {
  return {
    ofKey: db.prepare<[number], DomainRow>(
      'SELECT domain, first_seen, last_seen FROM bound_domains WHERE key_id = ? ORDER BY position',
    ),
    count: db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM bound_domains WHERE key_id = ?'),
    nextPosition: db.prepare<[number], { p: number }>(
      'SELECT coalesce(max(position) + 1, 0) AS p FROM bound_domains WHERE key_id = ?',
    ),
    touch: db.prepare<[number, number, string]>(
      'UPDATE bound_domains SET last_seen = max(last_seen, ?) WHERE key_id = ? AND domain = ?',
    ),
    insert: db.prepare<[number, string, number, number, number]>(
      'INSERT INTO bound_domains (key_id, domain, position, first_seen, last_seen) VALUES (?, ?, ?, ?, ?)',
    ),
  };
}

/**
 * Binds `domains` to a new key in their order, each once at its first place (a repeat would break
 * UNIQUE(key, domain)); a domain found in `kept` keeps its first and last seen from there
 * (docs/protocol.md#key-lifecycle: a transfer carries the old bindings over).
 */
export function insertDomains(
  sql: BoundDomainStatements,
  keyId: number,
  domains: readonly string[],
  at: number,
  kept?: ReadonlyMap<string, DomainRow>,
): void {
  [...new Set(domains)].forEach((domain, position) => {
    const old = kept?.get(domain);
    sql.insert.run(keyId, domain, position, old?.first_seen ?? at, old?.last_seen ?? at);
  });
}

/**
 * docs/protocol.md#verdict rule 8. Runs in the write batcher, that is inside BEGIN IMMEDIATE: the
 * write lock is taken BEFORE the count, so the count and the insert cannot interleave with
 * another connection or process. (A deferred transaction would read first, and could only fail,
 * not wait, when upgrading to write.)
 */
function bind(
  sql: BoundDomainStatements,
  keyId: number,
  domain: string,
  sites: number,
  now: number,
): 'bound' | 'already' | 'full' {
  if (sql.touch.run(now, keyId, domain).changes > 0) {
    return 'already';
  }
  const bound = sql.count.get(keyId)?.n ?? 0;
  if (bound >= sites) {
    return 'full';
  }
  const position = sql.nextPosition.get(keyId)?.p ?? 0;
  sql.insert.run(keyId, domain, position, now, now);
  return 'bound';
}

/**
 * Binding and last seen (docs/protocol.md#verdict rules 7 and 8): two of the three writes of every
 * verdict, so they go through the group commit (write-batcher.ts). A binding's webhook events
 * (`domain.bound`) are written in its own savepoint, on 'bound' only (docs/protocol.md#webhooks).
 */
export function domainBindings(
  sql: BoundDomainStatements,
  writes: WriteBatcher,
  outbox: WebhookOutbox,
): Pick<Store, 'bindDomain' | 'touchDomain'> {
  return {
    async bindDomain(keyId, domain, sites, now, events = []) {
      const rowid = requireKeyId(keyId, parseRowId);
      return writes.write(() => {
        const outcome = bind(sql, rowid, domain, sites, now);
        if (outcome === 'bound') {
          outbox.write(events);
        }
        return outcome;
      });
    },

    async touchDomain(keyId, domain, now) {
      const rowid = requireKeyId(keyId, parseRowId);
      await writes.write(() => sql.touch.run(now, rowid, domain));
    },
  };
}
