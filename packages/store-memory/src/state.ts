import type { KeyKind, KeyStatus } from '@licence/core';
import type { Store } from '@licence/service';

/** A key as the memory store keeps it: the fields a revocation or a replacement changes are mutable. */
export interface MemoryKeyRow {
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
  /** The id of the first key of its chain of replacements (StoredKey `lineage`). */
  readonly lineage: string;
  endedBy: Store.KeyChangeInitiator | null;
}

export interface MemoryLogRow {
  readonly at: number;
  readonly keyId: string | null;
  readonly host: string;
  /** Deleted with its entry by the purge (docs/protocol.md#privacy). */
  readonly ip: string;
  readonly outcome: Store.VerdictOutcome;
}

/** An author token as kept: its SHA-256, never the token (docs/protocol.md#authors). */
export interface MemoryTokenRow {
  readonly id: string;
  readonly authorId: string;
  readonly hash: string;
  readonly label: string | null;
  readonly createdAt: number;
  lastUsedAt: number | null;
}

/** One signing secret of an endpoint (docs/protocol.md#webhooks): `until` null while it has no end. */
export interface MemorySecretRow {
  readonly secret: string;
  until: number | null;
}

/** An endpoint as kept: its frozen record and its secrets, oldest first. */
export interface MemoryEndpointRow {
  readonly record: Store.WebhookEndpointRecord;
  secrets: MemorySecretRow[];
}

/** An event of the outbox; `seq` is its insertion order, the "event order" of the port. */
export interface MemoryEventRow extends Store.NewWebhookEvent {
  readonly seq: number;
}

/** An event's delivery to one endpoint; `leaseUntil` is the end of a deliverer's claim, if any. */
export interface MemoryDeliveryRow {
  readonly id: string;
  readonly endpointId: string;
  readonly eventId: string;
  /** The event's `seq`. */
  readonly seq: number;
  status: Store.WebhookDeliveryStatus;
  nextAttemptAt: number | null;
  leaseUntil: number | null;
  readonly attempts: Store.WebhookAttemptRecord[];
}

/** Product id -> UTC day -> outcome -> verdicts (docs/protocol.md#activity). */
export type MemoryActivity = Map<string, Map<number, Map<Store.VerdictOutcome, number>>>;

/** Everything the memory store holds; each part of the store (memory-*.ts) works on it. */
export interface MemoryState {
  readonly products: Map<string, Store.ProductRecord>;
  readonly keys: Map<string, MemoryKeyRow>;
  /** Key hash -> key id. */
  readonly byHash: Map<string, string>;
  readonly log: MemoryLogRow[];
  readonly activity: MemoryActivity;
  readonly authors: Map<string, Store.AuthorRecord>;
  /** Token id -> token; token ids are unique across authors. */
  readonly tokens: Map<string, MemoryTokenRow>;
  readonly webhookEndpoints: Map<string, MemoryEndpointRow>;
  /** Event id -> event, in insertion (`seq`) order. */
  readonly webhookEvents: Map<string, MemoryEventRow>;
  /** Delivery id -> delivery, in the order of their events. */
  readonly webhookDeliveries: Map<string, MemoryDeliveryRow>;
  nextWebhookSeq: number;
  nextId: number;
  closed: boolean;
}

export function createMemoryState(): MemoryState {
  return {
    products: new Map(),
    keys: new Map(),
    byHash: new Map(),
    log: [],
    activity: new Map(),
    authors: new Map(),
    tokens: new Map(),
    webhookEndpoints: new Map(),
    webhookEvents: new Map(),
    webhookDeliveries: new Map(),
    nextWebhookSeq: 1,
    nextId: 1,
    closed: false,
  };
}

/** Runs one Store method's work on the state and answers its result through a promise. */
export type MemoryRun = <T>(work: () => T) => Promise<T>;

/**
 * Every method answers through a promise, as a real store does, and rejects (never throws
 * synchronously) when it cannot answer, a closed store included. `work` runs without an `await`
 * inside, so each method is atomic on Node's single thread.
 */
export function memoryRunner(state: MemoryState): MemoryRun {
  return <T>(work: () => T): Promise<T> => {
    try {
      if (state.closed) throw new Error('memory store: closed');
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };
}

/** A key's bound domains as fresh frozen copies: a caller can never change the store behind its back. */
export function frozenDomains(row: MemoryKeyRow): Store.BoundDomain[] {
  return row.domains.map((domain) => Object.freeze({ ...domain }));
}
