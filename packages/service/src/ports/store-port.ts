import type { KeyKind, KeyStatus, Motif, Signer } from '@licence/core';
import type { WebhookEventType } from '../webhooks/index.js';

/**
 * The service's ports (CONTRIBUTING.md#architecture): everything outside the pure core that a
 * request needs. Adapters (Koa, Lambda) and stores (SQLite, PostgreSQL) implement them; the service
 * never imports them. Every time is in whole SECONDS since the epoch unless a name says otherwise
 * (`nowMs`).
 */

export type { Signer };

/** The time, handed in so tests can move it (the purge, trial ends, the rate limit). */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** A pino-compatible subset. Never give it a licence key, a signing key or a token. */
export interface Logger {
  debug(fields: Record<string, unknown>, message?: string): void;
  info(fields: Record<string, unknown>, message?: string): void;
  warn(fields: Record<string, unknown>, message?: string): void;
  error(fields: Record<string, unknown>, message?: string): void;
}

/**
 * docs/protocol.md#rate-limit: at most `limit` accepted requests per client in any sliding
 * `windowMs`.
 */
export interface RateLimiter {
  /**
   * Counts one request of `client` (an IPv4 address, or an IPv6 /64 prefix, as the service
   * computes it) at `nowMs` if the window has room. A refused request is not counted.
   * `retryAfter`: whole seconds until the oldest counted request leaves the window (>= 1) when
   * refused, 0 when allowed.
   */
  hit(client: string, nowMs: number): Promise<{ readonly allowed: boolean; readonly retryAfter: number }>;
}

/**
 * The Store port's records (docs/protocol.md#key-lifecycle, #privacy, #webhooks), a type-only
 * namespace merged into the `Store` interface below: a store names them `Store.StoredKey`,
 * `Store.NewKey`... and imports only `Store` for them. The service's own wings use the aliases
 * after it, under the same names (ports/index.ts).
 */
export declare namespace Store {
  /**
   * docs/protocol.md#key-lifecycle: a product, and the author whose development key opens all their
   * products.
   */
  export interface ProductRecord {
    readonly id: string;
    readonly author: string;
    readonly name: string;
    readonly createdAt: number;
    /**
     * The product's own staging host patterns (docs/protocol.md#staging-hosts), normalised by core's
     * `parseStagingPattern`, in the order the author gave them; [] when none.
     */
    readonly staging: readonly string[];
  }

  /** What `updateProduct` changes: each field given replaces the stored one. */
  export interface ProductChange {
    readonly name?: string;
    readonly staging?: readonly string[];
  }

  /** Who ended a key by replacing it (docs/protocol.md#webhooks `data.initiatedBy`). */
  export type KeyChangeInitiator = 'operator' | 'author' | 'buyer';

  /** A bound registrable domain (docs/protocol.md#privacy): first and last seen. */
  export interface BoundDomain {
    readonly domain: string;
    readonly firstSeen: number;
    readonly lastSeen: number;
  }

  /**
   * A key as stored (docs/protocol.md#key-lifecycle): never the key itself, only SHA-256 of the
   * normalised key (hex) and its last four characters for display.
   */
  export interface StoredKey {
    /** Opaque store id; never shown to buyers. */
    readonly id: string;
    /** SHA-256 of the normalised key, lower-case hex. */
    readonly hash: string;
    /** The last four characters of the normalised key. */
    readonly hint: string;
    readonly produit: string;
    readonly kind: KeyKind;
    readonly status: KeyStatus;
    /** Domains the key may bind (buyer: N, default 1; trial: N; dev: 0, it binds nothing). */
    readonly sites: number;
    /** Trial end; null for other kinds. */
    readonly expiresAt: number | null;
    /** When it was replaced or revoked; null while active. */
    readonly endedAt: number | null;
    /** Revocation reason, for the author only; null otherwise. */
    readonly reason: string | null;
    /** Id of the key that replaced it (regenerate, transfer); null otherwise. */
    readonly replacedBy: string | null;
    readonly createdAt: number;
    /** Products the key opens: its own, or for a dev key all of its author's products. */
    readonly products: readonly string[];
    /** Bound domains in binding order. */
    readonly domains: readonly BoundDomain[];
    /**
     * The id of the first key of its chain of replacements (itself when it replaced none): a
     * regenerated or transferred key's new key keeps its lineage (docs/protocol.md#buyer-links, the
     * buyer's transfers are counted per lineage).
     */
    readonly lineage: string;
    /** Who replaced it (`replaceKey`'s `initiatedBy`); null while active, when revoked, or unknown. */
    readonly endedBy: KeyChangeInitiator | null;
    /** The staging host patterns of its own product `produit` (ProductRecord `staging`). */
    readonly staging: readonly string[];
  }

  /** What `insertKey` and `replaceKey` store for a new key. */
  export interface NewKey {
    readonly hash: string;
    readonly hint: string;
    readonly produit: string;
    readonly kind: KeyKind;
    readonly sites: number;
    readonly expiresAt: number | null;
    readonly createdAt: number;
  }

  /**
   * What a verdict answered, as the request log records it (docs/protocol.md#activity): `ok`, `essai`
   * (ok with `essai` true: a test host, or a development key), or the refusal's motif. Not personal
   * data.
   */
  export type VerdictOutcome = 'ok' | 'essai' | Motif;

  /**
   * One line of the request log (docs/protocol.md#privacy): time, key, host, client IP, and the
   * verdict's outcome. Nothing else; the purge deletes the whole line once it is older than the
   * retention.
   */
  export interface RequestLogEntry {
    readonly at: number;
    /** The matched key's id, or null for an unknown key. */
    readonly keyId: string | null;
    readonly host: string;
    readonly ip: string;
    readonly outcome: VerdictOutcome;
    /**
     * The product whose activity counts this verdict (docs/protocol.md#activity): the requested
     * product when the key opens it, else the key's own; null for an unknown key. Not stored in the
     * log line itself: the store adds one to that product's count of `outcome` for the UTC day of
     * `at`, in the same transaction as the line.
     */
    readonly produit: string | null;
  }

  /** One count of a product's activity (docs/protocol.md#activity): verdicts of `outcome` on `day`. */
  export interface ActivityCount {
    /** The UTC day: whole days since the epoch, `Math.floor(at / 86400)`. */
    readonly day: number;
    readonly outcome: VerdictOutcome;
    readonly count: number;
  }

  /** An author (docs/protocol.md#authors): owns every product whose `author` is its id. */
  export interface AuthorRecord {
    readonly id: string;
    readonly name: string;
    readonly createdAt: number;
  }

  /** An author token as listed: never the token, nor its hash. */
  export interface AuthorTokenRecord {
    /** Made by the service (`tok_` + random), unique across authors. */
    readonly id: string;
    readonly authorId: string;
    readonly label: string | null;
    readonly createdAt: number;
    /** An authenticated request, written at most once a minute (so within a minute of the last); null when never used. */
    readonly lastUsedAt: number | null;
  }

  /** What `addAuthorToken` stores: SHA-256 of the token (lower-case hex), never the token. */
  export interface NewAuthorToken {
    readonly id: string;
    readonly authorId: string;
    readonly hash: string;
    readonly label: string | null;
    readonly createdAt: number;
  }

  /**
   * What every Store write that creates a record answers (addProduct, insertKey, replaceKey): the new
   * record's id, or why nothing was created, and then nothing changed.
   */
  export type Created<Refusal extends string> =
    | { readonly result: 'created'; readonly id: string }
    | { readonly result: Refusal };

  /**
   * An event for the shops' webhooks (docs/protocol.md#webhooks), written by the Store in the same
   * transaction as the change that caused it (the outbox): a crash never loses one, nor sends one for
   * a change that did not commit. The store fans it out at once into one delivery per endpoint that
   * exists then, subscribes to `type`, and belongs to the product's author or to every author
   * (`author` null).
   */
  export interface NewWebhookEvent {
    /** `msg_` + random (webhooks/ids.ts): the `webhook-id` of every delivery of it. */
    readonly id: string;
    readonly type: WebhookEventType;
    /** The product it concerns; its `author` decides which endpoints receive it. */
    readonly produit: string;
    readonly at: number;
    /** The JSON body, exactly as sent (webhooks/payload.ts). */
    readonly body: string;
    /**
     * When not null, an event whose `dedupe` is already stored is not stored again (`verdict.refused`:
     * once per key, host and UTC day).
     */
    readonly dedupe: string | null;
  }

  /** A shop's endpoint (docs/protocol.md#webhooks), as listed: never its secrets. */
  export interface WebhookEndpointRecord {
    /** `wh_` + random (webhooks/ids.ts). */
    readonly id: string;
    /** The author whose products' events it receives; null: every author's (the operator's only). */
    readonly author: string | null;
    readonly url: string;
    /** At least one, each once, in WEBHOOK_EVENT_TYPES order. */
    readonly events: readonly WebhookEventType[];
    readonly createdAt: number;
  }

  /** What `addWebhookEndpoint` stores: the record and its first signing secret (`whsec_...`). */
  export interface NewWebhookEndpoint extends WebhookEndpointRecord {
    readonly secret: string;
  }

  export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

  /** One attempt of a delivery, as its log shows it. */
  export interface WebhookAttemptRecord {
    readonly at: number;
    /** The receiver's HTTP status, or null when none came (timeout, refused, private address...). */
    readonly status: number | null;
    /** Why it failed, in a few words without a secret or a key (`timeout after 15 s`); null for a 2xx. */
    readonly error: string | null;
    readonly durationMs: number;
  }

  /** An event's delivery to one endpoint, with its attempts (docs/protocol.md#webhooks). */
  export interface WebhookDeliveryRecord {
    /** `dlv_...`, webhookDeliveryId(eventId, endpointId): the same in every store. */
    readonly id: string;
    readonly endpointId: string;
    readonly eventId: string;
    readonly type: WebhookEventType;
    /** The event's `at`. */
    readonly createdAt: number;
    readonly status: WebhookDeliveryStatus;
    /** When it is due next; null unless pending. */
    readonly nextAttemptAt: number | null;
    /** Oldest first. */
    readonly attempts: readonly WebhookAttemptRecord[];
  }

  /** A delivery the deliverer holds (`claimWebhookDeliveries`) until it calls `finishWebhookAttempt`. */
  export interface ClaimedWebhookDelivery {
    readonly id: string;
    readonly endpointId: string;
    readonly eventId: string;
    readonly url: string;
    readonly body: string;
    /** Attempts made before this one. */
    readonly attempts: number;
    /** The endpoint's secrets still valid at the claim's `now`, newest first (several during a rotation). */
    readonly secrets: readonly string[];
  }

  /** What an attempt leaves: delivered, due again at `nextAttemptAt`, or failed for good. */
  export type WebhookAttemptOutcome =
    | { readonly status: 'delivered' }
    | { readonly status: 'pending'; readonly nextAttemptAt: number }
    | { readonly status: 'failed' };

  export interface Installation {
    readonly keyId: string;
    readonly hint: string;
    readonly kind: KeyKind;
    readonly status: KeyStatus;
    readonly domains: readonly BoundDomain[];
  }
}

/** The records under their own names, for the service's wings; the package's root exports only `Store`. */
export type ActivityCount = Store.ActivityCount;
export type AuthorRecord = Store.AuthorRecord;
export type AuthorTokenRecord = Store.AuthorTokenRecord;
export type BoundDomain = Store.BoundDomain;
export type ClaimedWebhookDelivery = Store.ClaimedWebhookDelivery;
export type Created<Refusal extends string> = Store.Created<Refusal>;
export type Installation = Store.Installation;
export type KeyChangeInitiator = Store.KeyChangeInitiator;
export type NewAuthorToken = Store.NewAuthorToken;
export type NewKey = Store.NewKey;
export type NewWebhookEndpoint = Store.NewWebhookEndpoint;
export type NewWebhookEvent = Store.NewWebhookEvent;
export type ProductChange = Store.ProductChange;
export type ProductRecord = Store.ProductRecord;
export type RequestLogEntry = Store.RequestLogEntry;
export type StoredKey = Store.StoredKey;
export type VerdictOutcome = Store.VerdictOutcome;
export type WebhookAttemptOutcome = Store.WebhookAttemptOutcome;
export type WebhookAttemptRecord = Store.WebhookAttemptRecord;
export type WebhookDeliveryRecord = Store.WebhookDeliveryRecord;
export type WebhookDeliveryStatus = Store.WebhookDeliveryStatus;
export type WebhookEndpointRecord = Store.WebhookEndpointRecord;

/**
 * Persistence (docs/protocol.md#key-lifecycle, #privacy, #storage). Every method is atomic on its
 * own. Implementations: SQLite (embedded default), PostgreSQL (several processes). An unavailable
 * store rejects its promise; the service answers 5xx then, never a signed refusal
 * (docs/protocol.md#errors).
 */
export interface Store {
  /** The key with this hash, with the products it opens and its bound domains, or null. */
  findKeyByHash(hash: string): Promise<StoredKey | null>;
  findKeyById(id: string): Promise<StoredKey | null>;

  /**
   * docs/protocol.md#verdict rule 8, atomically: binds `domain` to the key when fewer than `sites`
   * domains are bound ('bound'), or reports that it is already bound ('already', last seen
   * updated), or that the key is full ('full', nothing changed). Two racing first calls on a
   * one-domain key bind exactly one. `events` (`domain.bound`) are stored in the same transaction,
   * on 'bound' only.
   */
  bindDomain(
    keyId: string,
    domain: string,
    sites: number,
    now: number,
    events?: readonly NewWebhookEvent[],
  ): Promise<'bound' | 'already' | 'full'>;
  /** Updates `lastSeen` of an already bound domain (rule 7). */
  touchDomain(keyId: string, domain: string, now: number): Promise<void>;
  logRequest(entry: RequestLogEntry): Promise<void>;

  /** Created with `id` = the product's id; 'exists' when the id is taken (409). */
  addProduct(product: ProductRecord): Promise<Created<'exists'>>;
  getProduct(productId: string): Promise<ProductRecord | null>;
  /** Applies `change` to the product; the product as now stored, or null when there is none. */
  updateProduct(productId: string, change: ProductChange): Promise<ProductRecord | null>;
  /**
   * Stores a new key with optional initial domains. 'no-product' when the product is unknown;
   * 'dev-exists' when `kind` is dev and the product already has a live dev key
   * (docs/protocol.md#key-lifecycle: 409). `events` are stored in the same transaction, on 'created'
   * only (so in every write below that takes them: on success only, never when nothing changed).
   */
  insertKey(
    key: NewKey,
    domains?: readonly string[],
    events?: readonly NewWebhookEvent[],
  ): Promise<Created<'no-product' | 'dev-exists'>>;
  /**
   * Regenerate or transfer (docs/protocol.md#key-lifecycle), atomically: the old key, if still
   * active, takes `status` with `endedAt` = `now` and `replacedBy`, and the new key is stored with
   * `domains` bound (first and last seen = `now` for new ones, kept for carried-over ones); the
   * new key's id is answered; the new key keeps the old one's `lineage`, and the old one records
   * `initiatedBy` as its `endedBy`. 'not-active' when the old key is no longer active (409), and then
   * nothing changes.
   */
  replaceKey(
    oldId: string,
    status: 'transfert' | 'regeneration',
    newKey: NewKey,
    domains: readonly string[],
    now: number,
    events?: readonly NewWebhookEvent[],
    initiatedBy?: KeyChangeInitiator,
  ): Promise<Created<'not-active'>>;
  /**
   * How many keys of `lineage` were ended by a transfer whose `initiatedBy` was 'buyer' at or after
   * `since` (docs/protocol.md#buyer-links: at most LICENCE_BUYER_TRANSFERS_PER_30_DAYS).
   */
  countBuyerTransfers(lineage: string, since: number): Promise<number>;
  /**
   * Revokes an active key (docs/protocol.md#key-lifecycle). 'not-active' when it is no longer
   * active (409).
   */
  revokeKey(
    id: string,
    reason: string | null,
    now: number,
    events?: readonly NewWebhookEvent[],
  ): Promise<'revoked' | 'not-active'>;
  /**
   * Every key of the product with its bound domains (docs/protocol.md#administration,
   * installations).
   */
  installations(productId: string): Promise<readonly Installation[]>;
  /**
   * docs/protocol.md#privacy: deletes the request-log entries logged strictly before `before`, and
   * with them their client IPs; returns how many entries were deleted (0 when none). Nothing else
   * changes: keys and bound domains stay. A store deletes in short steps so that a purge of a
   * year-old day of traffic never holds a lock or the event loop for long; what it deleted must
   * not stay readable in its files (docs/protocol.md#storage). The per-day activity counts of the
   * days that ended before `before` (day < floor(before / 86400)) go too: they summarise the log
   * (docs/protocol.md#activity), and are not counted in the answer.
   */
  purgeRequestLog(before: number): Promise<number>;
  /**
   * Every product, by id; only those whose `author` is `author` unless it is null (the console's
   * product list, docs/protocol.md#administration).
   */
  listProducts(author: string | null): Promise<readonly ProductRecord[]>;
  /**
   * The counts of `productId`'s verdicts per UTC day and outcome, for days `fromDay` to `toDay`
   * inclusive (docs/protocol.md#activity), in any order; a day and outcome without verdicts has
   * no entry. Answered from the per-day counts `logRequest` keeps, never by scanning the log.
   */
  activity(productId: string, fromDay: number, toDay: number): Promise<readonly ActivityCount[]>;

  /** docs/protocol.md#authors. 'exists' when the id is taken (409). */
  addAuthor(author: AuthorRecord): Promise<Created<'exists'>>;
  getAuthor(id: string): Promise<AuthorRecord | null>;
  /** Every author, by id. */
  listAuthors(): Promise<readonly AuthorRecord[]>;
  /** 'no-author' when the author is unknown. The id is the token record's own (`token.id`). */
  addAuthorToken(token: NewAuthorToken): Promise<Created<'no-author'>>;
  /** The author's tokens, oldest first (then by id). */
  listAuthorTokens(authorId: string): Promise<readonly AuthorTokenRecord[]>;
  /** Deletes the author's token `tokenId`; false when that author has no such token. */
  deleteAuthorToken(authorId: string, tokenId: string): Promise<boolean>;
  /** The token whose SHA-256 (hex) is `hash`, or null. */
  findAuthorToken(hash: string): Promise<AuthorTokenRecord | null>;
  /** Sets the token's `lastUsedAt` to `now` (the service calls it at most once a minute per token). */
  touchAuthorToken(tokenId: string, now: number): Promise<void>;

  /**
   * docs/protocol.md#webhooks. 'no-author' when `author` is not null and unknown. The id is the
   * record's own (`endpoint.id`); `secret` becomes its one secret, without an end.
   * 'too-many' when `perAuthor` is given, `author` is not null and the author already has that many
   * endpoints (docs/protocol.md#endpoints, LICENCE_WEBHOOKS_PER_AUTHOR); every-author endpoints are
   * not counted. The count and the insert are one atomic step: two adds at once never pass the quota.
   */
  addWebhookEndpoint(endpoint: NewWebhookEndpoint, perAuthor?: number): Promise<Created<'no-author' | 'too-many'>>;
  /** Oldest first (then by id): every endpoint when `author` is null, else only that author's. */
  listWebhookEndpoints(author: string | null): Promise<readonly WebhookEndpointRecord[]>;
  getWebhookEndpoint(id: string): Promise<WebhookEndpointRecord | null>;
  /** Deletes it with its secrets, deliveries and their attempts; false when there is none. */
  deleteWebhookEndpoint(id: string): Promise<boolean>;
  /**
   * Adds `secret` to the endpoint's secrets, and ends those without an end at `previousUntil` (a
   * rotation: both sign until then). Secrets that already had an end at or before `previousUntil`
   * are deleted: at most one old secret is kept. False when there is no such endpoint.
   */
  rotateWebhookSecret(id: string, secret: string, previousUntil: number): Promise<boolean>;
  /**
   * An event that no key change causes (`verdict.refused`), with its deliveries, in one transaction.
   * 'duplicate' when its `dedupe` is already stored, and then nothing changed.
   */
  addWebhookEvent(event: NewWebhookEvent): Promise<'added' | 'duplicate'>;
  /** The endpoint's `limit` newest deliveries (by event, newest first), with their attempts. */
  listWebhookDeliveries(endpointId: string, limit: number): Promise<readonly WebhookDeliveryRecord[]>;
  /**
   * A manual retry: the delivery is pending again and due at `now`, whatever its status (its
   * attempts are kept and counted). Null when the endpoint has no such delivery.
   */
  retryWebhookDelivery(endpointId: string, deliveryId: string, now: number): Promise<WebhookDeliveryRecord | null>;
  /**
   * Up to `limit` deliveries to try now, at most one per endpoint, none of an endpoint that has one
   * claimed until after `now`: of each such endpoint, its oldest pending delivery (event order) due
   * at or before `now`. Each is claimed until `leaseUntil`, atomically: several processes sharing
   * the storage never claim one delivery twice while its claim holds. A claim that outlives
   * `leaseUntil` (its process died) ends by itself.
   */
  claimWebhookDeliveries(now: number, leaseUntil: number, limit: number): Promise<readonly ClaimedWebhookDelivery[]>;
  /** Records an attempt, counts it, sets the outcome and ends the claim. Nothing when the delivery is gone. */
  finishWebhookAttempt(
    deliveryId: string,
    attempt: WebhookAttemptRecord,
    outcome: WebhookAttemptOutcome,
  ): Promise<void>;
  /**
   * Deletes the events stored strictly before `before` that have no pending delivery, with their
   * deliveries and attempts (docs/protocol.md#webhooks: a body may hold a new key); answers how many
   * events.
   */
  purgeWebhookEvents(before: number): Promise<number>;

  /** Resolves when the store answers (for /healthz). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
