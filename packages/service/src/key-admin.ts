import {
  formatQuand,
  generateKey,
  keyHint,
  normalizeKey,
  type KeyKind,
  type KeyStatus,
  type RandomBytes,
} from '@licence/core';
import * as fields from './admin-fields.js';
import { hashKey } from './key-hash.js';
import type { BoundDomain, Clock, Logger, NewKey, Store, StoredKey } from './ports.js';
import { HttpError } from './problem.js';
import { field } from './request-body.js';
import { twelveMonthsBefore } from './retention.js';
import { fromStore, nowSeconds } from './service-context.js';

/**
 * Key administration (docs/protocol.md#key-lifecycle, #administration) as plain operations: the
 * admin HTTP API is a thin layer over them, and the `licence` CLI can call them on its configured
 * store without HTTP. Each takes the parsed JSON body (or nothing), checks it with exact messages,
 * and either returns the JSON the admin API answers or throws an HttpError: 400 bad field, 404
 * unknown key or product, 409 a key no longer alive, a second live dev key, a `from` not bound, a
 * `to` beyond the allowance, 503 store down.
 *
 * A full key is returned once, by `issueKey`, `regenerateKey` and `transferKey`; everything else,
 * logs included, shows only its four-character hint (docs/protocol.md#key-lifecycle, #privacy).
 */

export interface KeyAdminOptions {
  readonly store: Store;
  readonly clock: Clock;
  readonly random: RandomBytes;
  readonly logger: Logger;
}

export interface ProductView {
  readonly id: string;
  readonly author: string;
  readonly name: string;
}

export interface IssuedKey {
  /** The formatted key (`XXXXX-XXXXX-...`), shown this once. */
  readonly cle: string;
  readonly hint: string;
  readonly produit: string;
  readonly kind: KeyKind;
  readonly sites: number;
  /** ISO 8601 end of a trial; null otherwise. */
  readonly expire: string | null;
}

export interface DomainView {
  readonly domain: string;
  readonly firstSeen: string;
  readonly lastSeen: string;
}

/** A key's state as the admin sees it: `expiree` is a trial past its end (its stored status is active). */
export type KeyState = KeyStatus | 'expiree';

export interface KeyView {
  readonly hint: string;
  readonly produit: string;
  readonly kind: KeyKind;
  readonly status: KeyState;
  readonly sites: number;
  readonly expire: string | null;
  /** When it was replaced or revoked; null while active. */
  readonly quand: string | null;
  /** The revocation reason, for the author only; null otherwise. */
  readonly reason: string | null;
  readonly domains: readonly DomainView[];
}

export interface ReplacedKey {
  /** The new formatted key, shown this once. */
  readonly cle: string;
}

export interface RevokedKey {
  readonly hint: string;
  readonly status: 'revocation';
  readonly quand: string;
}

export interface InstallationsView {
  readonly produit: string;
  /** Bound domains of the keys still alive: the product's installations. */
  readonly count: number;
  readonly keys: readonly {
    readonly hint: string;
    readonly kind: KeyKind;
    readonly status: KeyStatus;
    readonly domains: readonly DomainView[];
  }[];
}

export interface KeyAdmin {
  addProduct(body?: unknown): Promise<ProductView>;
  issueKey(body?: unknown): Promise<IssuedKey>;
  showKey(cle: string): Promise<KeyView>;
  regenerateKey(cle: string): Promise<ReplacedKey>;
  transferKey(cle: string, body?: unknown): Promise<ReplacedKey>;
  revokeKey(cle: string, body?: unknown): Promise<RevokedKey>;
  installations(productId: string): Promise<InstallationsView>;
  /** docs/protocol.md#privacy: erase client IPs older than twelve months. */
  purge(): Promise<{ readonly erased: number }>;
}

/** Longest revocation reason kept (it is for the author's own records). */
export const MAX_REASON_LENGTH = 1000;

const domainView = (domain: BoundDomain): DomainView => ({
  domain: domain.domain,
  firstSeen: formatQuand(domain.firstSeen),
  lastSeen: formatQuand(domain.lastSeen),
});

/**
 * A trial past its end is dead though its stored status is still `active`
 * (docs/protocol.md#verdict, rule 4).
 */
function stateOf(key: Pick<StoredKey, 'status' | 'expiresAt'>, now: number): KeyState {
  if (key.status === 'active' && key.expiresAt !== null && now >= key.expiresAt) return 'expiree';
  return key.status;
}

export function createKeyAdmin(options: KeyAdminOptions): KeyAdmin {
  const { store, clock, random, logger } = options;

  /** A new key: the formatted text to show once, and what the store keeps. */
  const newKey = (template: Omit<NewKey, 'hash' | 'hint'>): { readonly cle: string; readonly key: NewKey } => {
    const cle = generateKey(random);
    const normalised = normalizeKey(cle);
    return { cle, key: { ...template, hash: hashKey(normalised), hint: keyHint(normalised) } };
  };

  /** The stored key a `:cle` names, or 404. */
  const findKey = async (cle: string): Promise<StoredKey> => {
    const normalised = field(() => normalizeKey(cle));
    const stored = await fromStore(() => store.findKeyByHash(hashKey(normalised)));
    if (stored === null) throw new HttpError('not-found', `no key ending in ${keyHint(normalised)}`);
    return stored;
  };

  /** docs/protocol.md#key-lifecycle: any action on a key that is no longer alive is a 409. */
  const requireAlive = (stored: StoredKey, now: number): void => {
    const state = stateOf(stored, now);
    if (state !== 'active') {
      throw new HttpError('conflict', `key ${stored.hint} is no longer alive (${state})`);
    }
  };

  const notActive = (stored: StoredKey) =>
    new HttpError('conflict', `key ${stored.hint} is no longer alive (changed meanwhile)`);

  /**
   * docs/protocol.md#key-lifecycle: a replacement keeps the product, the kind and the limits of the
   * key it replaces.
   */
  const replacementFor = (stored: StoredKey, now: number) =>
    newKey({
      produit: stored.produit,
      kind: stored.kind,
      sites: stored.sites,
      expiresAt: stored.expiresAt,
      createdAt: now,
    });

  return {
    async addProduct(body) {
      const input = fields.adminBody(body);
      const id = fields.slug('id', input.id);
      const author = fields.text('author', input.author);
      const name = fields.text('name', input.name);
      const product = { id, author, name, createdAt: nowSeconds(clock) };
      const result = await fromStore(() => store.addProduct(product));
      if (result === 'exists') throw new HttpError('conflict', `product ${id} already exists`);
      logger.info({ action: 'product.add', produit: id }, 'product added');
      return { id, author, name };
    },

    async issueKey(body) {
      const input = fields.adminBody(body);
      const now = nowSeconds(clock);
      const produit = fields.slug('produit', input.produit);
      const kind = fields.kind(input.kind);
      const sites = fields.sites(input.sites, kind);
      const expiresAt = fields.expire(input.expire, kind, now);
      const { cle, key } = newKey({ produit, kind, sites, expiresAt, createdAt: now });
      const result = await fromStore(() => store.insertKey(key));
      if (result.result === 'no-product') throw new HttpError('not-found', `no product ${produit}`);
      if (result.result === 'dev-exists') {
        throw new HttpError('conflict', `product ${produit} already has a live dev key; regenerate it instead`);
      }
      logger.info({ action: 'key.issue', hint: key.hint, produit, kind }, 'key issued');
      return {
        cle,
        hint: key.hint,
        produit,
        kind,
        sites,
        expire: expiresAt === null ? null : formatQuand(expiresAt),
      };
    },

    async showKey(cle) {
      const stored = await findKey(cle);
      return {
        hint: stored.hint,
        produit: stored.produit,
        kind: stored.kind,
        status: stateOf(stored, nowSeconds(clock)),
        sites: stored.sites,
        expire: stored.expiresAt === null ? null : formatQuand(stored.expiresAt),
        quand: stored.endedAt === null ? null : formatQuand(stored.endedAt),
        reason: stored.reason,
        domains: stored.domains.map(domainView),
      };
    },

    async regenerateKey(cle) {
      const stored = await findKey(cle);
      const now = nowSeconds(clock);
      requireAlive(stored, now);
      // docs/protocol.md#key-lifecycle: the same product, domains and limits; the old key answers
      // `regeneration`.
      const replacement = replacementFor(stored, now);
      const domains = stored.domains.map((entry) => entry.domain);
      const result = await fromStore(() => store.replaceKey(stored.id, 'regeneration', replacement.key, domains, now));
      if (result.result === 'not-active') throw notActive(stored);
      logger.info({ action: 'key.regenerate', hint: stored.hint, newHint: replacement.key.hint }, 'key regenerated');
      return { cle: replacement.cle };
    },

    async transferKey(cle, body) {
      const input = fields.adminBody(body);
      const from = fields.transferDomain('from', input.from);
      const to = fields.transferDomain('to', input.to);
      const stored = await findKey(cle);
      const now = nowSeconds(clock);
      requireAlive(stored, now);
      const bound = stored.domains.map((entry) => entry.domain);
      if (from !== null && !bound.includes(from)) {
        throw new HttpError('conflict', `key ${stored.hint} is not bound to ${from}`);
      }
      // docs/protocol.md#key-lifecycle: the old domains minus `from`, plus `to`, in binding order.
      const domains = bound.filter((domain) => domain !== from);
      if (to !== null && !domains.includes(to)) domains.push(to);
      if (domains.length > stored.sites) {
        throw new HttpError(
          'conflict',
          `key ${stored.hint} allows ${stored.sites} domain(s); ${to ?? 'the new domain'} would make ${domains.length}`,
        );
      }
      const replacement = replacementFor(stored, now);
      const result = await fromStore(() => store.replaceKey(stored.id, 'transfert', replacement.key, domains, now));
      if (result.result === 'not-active') throw notActive(stored);
      logger.info(
        { action: 'key.transfer', hint: stored.hint, newHint: replacement.key.hint, from, to },
        'key transferred',
      );
      return { cle: replacement.cle };
    },

    async revokeKey(cle, body) {
      const input = fields.adminBody(body);
      const reason = fields.optionalText('reason', input.reason, MAX_REASON_LENGTH);
      const stored = await findKey(cle);
      const now = nowSeconds(clock);
      requireAlive(stored, now);
      const result = await fromStore(() => store.revokeKey(stored.id, reason, now));
      if (result === 'not-active') throw notActive(stored);
      // The reason is for the author: kept in the store, never logged.
      logger.info({ action: 'key.revoke', hint: stored.hint }, 'key revoked');
      return { hint: stored.hint, status: 'revocation', quand: formatQuand(now) };
    },

    async installations(productId) {
      const id = fields.slug('id', productId);
      const product = await fromStore(() => store.getProduct(id));
      if (product === null) throw new HttpError('not-found', `no product ${id}`);
      const rows = await fromStore(() => store.installations(id));
      const keys = rows.map((row) => ({
        hint: row.hint,
        kind: row.kind,
        status: row.status,
        domains: row.domains.map(domainView),
      }));
      // Installations are the domains of active keys: an old key of a transfer or regeneration
      // still lists the domains its successor carries, and must not count them twice. (The port's
      // Installation carries no trial end, so a trial past its end still counts here.)
      const count = rows.filter((row) => row.status === 'active').reduce((sum, row) => sum + row.domains.length, 0);
      return { produit: id, count, keys };
    },

    async purge() {
      const before = twelveMonthsBefore(clock.now());
      const erased = await fromStore(() => store.purgeIps(before));
      logger.info({ action: 'purge', erased, before: formatQuand(before) }, 'client IPs past retention erased');
      return { erased };
    },
  };
}
