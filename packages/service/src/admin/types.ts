import type { KeyKind, KeyState, KeyStatus, RandomBytes } from '@licence/core';
import type { Clock, Logger, Signer, Store, WebhookDeliveryStatus } from '../ports/index.js';
import type { WebhookEventType } from '../webhooks/index.js';

/**
 * Key administration's language (docs/protocol.md#key-lifecycle, #administration): what its
 * operations take, typed, and what they answer, the very JSON bodies of the admin API.
 */

export interface KeyAdminOptions {
  readonly store: Store;
  readonly clock: Clock;
  readonly random: RandomBytes;
  readonly logger: Logger;
  /**
   * LICENCE_WEBHOOK_ALLOW_PRIVATE=1 (docs/protocol.md#webhooks): endpoints may be `http` and reach
   * private, loopback and link-local addresses. Default false.
   */
  readonly webhookAllowPrivate?: boolean;
  /**
   * LICENCE_WEBHOOKS_PER_AUTHOR (docs/protocol.md#endpoints): the webhook endpoints one author may
   * have, an integer from 0 to 1000. Default 10.
   */
  readonly webhooksPerAuthor?: number;
  /**
   * The service's signing key (docs/protocol.md#buyer-links): buyer links are signed with it. Only
   * `buyerLink` needs it; without it, that operation throws (a wiring mistake, not a refusal).
   */
  readonly signer?: Signer;
}

/**
 * Who is asking (docs/protocol.md#authors): the operator (LICENCE_ADMIN_TOKEN, or the CLI on the
 * server) can do everything; an author token reaches only its author's products and keys.
 */
export type Principal =
  | { readonly role: 'operator' }
  | { readonly role: 'author'; readonly author: string; readonly tokenId: string };

/** The operator: the CLI's principal, and the default of createKeyAdmin. */
export const OPERATOR: Principal = { role: 'operator' };

/** A new author (operator only). `id` and `name` are trimmed; `id` follows a product's `author`. */
export interface AuthorInput {
  readonly id: string;
  readonly name: string;
}

export interface AuthorView {
  readonly id: string;
  readonly name: string;
  /** ISO 8601. */
  readonly created: string;
}

export interface TokenInput {
  /** What the author calls it ("shop", "laptop"); at most 100 characters. */
  readonly label?: string | undefined;
}

export interface NewTokenView {
  readonly id: string;
  /** The token, shown this once: `lat_` + 43 base64url characters (256 random bits). */
  readonly token: string;
}

export interface TokenView {
  readonly id: string;
  readonly label: string | null;
  /** ISO 8601. */
  readonly created: string;
  /** ISO 8601: the first use in its minute (written at most once a minute); null when never used. */
  readonly lastUsed: string | null;
}

/** `GET /admin/me`: who the token is, so the console shows what it may do. */
export type MeView = { readonly role: 'operator' } | { readonly role: 'author'; readonly author: AuthorView };

export interface ProductSummary extends ProductView {
  /** As InstallationsView `count`. */
  readonly installations: number;
}

/** One UTC day of a product's activity (docs/protocol.md#activity). */
export interface ActivityDay {
  /** `YYYY-MM-DD`, UTC. */
  readonly date: string;
  readonly ok: number;
  readonly essai: number;
  /** Refusals by motif; a motif with none is absent. */
  readonly refusals: Readonly<Record<string, number>>;
}

export interface ActivityView {
  readonly product: string;
  /** Every day of the range, oldest first, today (UTC) last, days without verdicts included. */
  readonly days: readonly ActivityDay[];
}

/**
 * A new product. `author` and `name` are trimmed. An author token may leave `author` out (it is
 * then its own author); the operator must give it.
 */
export interface ProductInput {
  readonly id: string;
  readonly author?: string | undefined;
  readonly name: string;
  /**
   * Its staging host patterns (docs/protocol.md#staging-hosts): a host matching one answers `ok`
   * with `essai` true for its keys, and is never bound. At most 50; absent is none.
   */
  readonly staging?: readonly string[] | undefined;
}

/**
 * `PATCH /admin/products/:id`: what changes, at least one field; each given one replaces the
 * stored one (`staging: []` clears the list).
 */
export interface ProductChangeInput {
  readonly name?: string | undefined;
  readonly staging?: readonly string[] | undefined;
}

/** A new key of `produit`. `sites` and `expire` follow docs/protocol.md#key-lifecycle's table. */
export interface IssueKeyInput {
  readonly produit: string;
  readonly kind: KeyKind;
  /** Domains it may bind: buyer and trial keys only, default 1. */
  readonly sites?: number | undefined;
  /** A trial's end (required for a trial, refused otherwise): whole seconds since the epoch, or a Date. */
  readonly expire?: number | Date | undefined;
}

/** A transfer: the key's domains minus `from`, plus `to` (hosts or URLs). */
export interface TransferInput {
  readonly from?: string | undefined;
  readonly to?: string | undefined;
}

/** `POST /admin/keys/:cle/buyer-link` (docs/protocol.md#buyer-links). */
export interface BuyerLinkInput {
  /** How long the link lives, in seconds: 60 to 2592000 (30 days), default 86400. */
  readonly ttl?: number | undefined;
}

/** A buyer link: the page's URL (it holds the token: give it to the key's buyer only) and its end. */
export interface BuyerLinkView {
  readonly url: string;
  /** ISO 8601. */
  readonly expires: string;
}

export interface RevokeInput {
  /** For the author's own records: kept, never logged. */
  readonly reason?: string | undefined;
}

export interface ProductView {
  readonly id: string;
  readonly author: string;
  readonly name: string;
  /** Its staging host patterns, normalised, in the order given; [] when none. */
  readonly staging: readonly string[];
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

/**
 * A new endpoint (docs/protocol.md#webhooks). `url`: `https`, no credentials nor fragment, at most
 * 2048 characters, not a private address (unless LICENCE_WEBHOOK_ALLOW_PRIVATE). `events`: at least
 * one of WEBHOOK_EVENT_TYPES. `author`: the operator names one, or leaves it out for every author's
 * events; an author token leaves it out or names itself.
 */
export interface WebhookInput {
  readonly url: string;
  readonly events: readonly WebhookEventType[];
  readonly author?: string | undefined;
}

export interface WebhookView {
  readonly id: string;
  readonly url: string;
  /** In WEBHOOK_EVENT_TYPES order, each once. */
  readonly events: readonly WebhookEventType[];
  /** null: every author's events. */
  readonly author: string | null;
  /** ISO 8601. */
  readonly created: string;
}

export interface NewWebhookView extends WebhookView {
  /** `whsec_` + base64 of 32 random bytes, shown this once. */
  readonly secret: string;
}

export interface RotatedSecretView {
  readonly id: string;
  /** The new secret, shown this once. */
  readonly secret: string;
  /** ISO 8601: until when the previous secrets sign too. */
  readonly previousUntil: string;
}

export interface WebhookAttemptView {
  /** ISO 8601. */
  readonly at: string;
  /** The receiver's HTTP status; null when none came. */
  readonly status: number | null;
  /** Why it failed without a status (`timeout after 15 s`); null otherwise. */
  readonly error: string | null;
  readonly durationMs: number;
}

export interface WebhookDeliveryView {
  readonly id: string;
  /** The event's id: the `webhook-id` header. */
  readonly event: string;
  readonly type: WebhookEventType;
  /** ISO 8601: when the event happened. */
  readonly created: string;
  readonly status: WebhookDeliveryStatus;
  /** ISO 8601; null unless pending. */
  readonly nextAttempt: string | null;
  readonly attempts: readonly WebhookAttemptView[];
}

export interface WebhookDeliveriesView {
  readonly webhook: string;
  readonly deliveries: readonly WebhookDeliveryView[];
}
