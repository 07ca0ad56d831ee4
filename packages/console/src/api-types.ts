/**
 * The JSON bodies of the admin API as the console reads them (docs/protocol.md#administration,
 * #authors, #activity): the answers are @licence/service's own view types, imported as types only
 * (erased from the bundle, which depends on nothing but Preact), so a change of the API that the
 * console does not follow fails its type check. The bodies it sends are its own: JSON, where the
 * service's inputs are typed (an `expire` there may be a Date).
 */

import type { InstallationsView, WebhookEventType } from '@licence/service';

export type { KeyKind } from '@licence/core';
export type {
  ActivityDay,
  ActivityView,
  AuthorView,
  DomainView,
  InstallationsView,
  IssuedKey,
  KeyState,
  KeyView,
  MeView,
  NewTokenView,
  NewWebhookView,
  ProductSummary,
  ProductView,
  RevokedKey,
  RotatedSecretView,
  TokenView,
  WebhookAttemptView,
  WebhookDeliveriesView,
  WebhookDeliveryView,
  WebhookEventType,
  WebhookView,
} from '@licence/service';

/** One key of a product's installations. */
export type InstallationKey = InstallationsView['keys'][number];

export interface ProductInput {
  readonly id: string;
  readonly name: string;
  /** Required of the operator; an author token may leave it out (docs/protocol.md#authors). */
  readonly author?: string;
  /** Staging host patterns (docs/protocol.md#staging-hosts); left out when none is typed. */
  readonly staging?: readonly string[];
}

/** `PATCH admin/products/:id`: each field given replaces the stored one (at least one). */
export interface ProductChange {
  readonly name?: string;
  /** The whole list: [] clears it. */
  readonly staging?: readonly string[];
}

/**
 * The answer of `POST admin/keys/:cle/buyer-link` (docs/protocol.md#buyer-links): the buyer's page,
 * its token inside, shown once; and when the link dies.
 */
export interface BuyerLinkView {
  readonly url: string;
  /** ISO 8601. */
  readonly expires: string;
}

/** `POST admin/keys/:cle/buyer-link` (docs/protocol.md#buyer-links). */
export interface BuyerLinkBody {
  /** Seconds the link lives, at most 30 days; the service's default (one day) when left out. */
  readonly ttl?: number;
}

export interface IssueKeyBody {
  readonly produit: string;
  readonly kind: 'buyer' | 'trial' | 'dev';
  readonly sites?: number;
  /** RFC 3339 with a zone; required for a trial, refused otherwise. */
  readonly expire?: string;
}

export interface TransferBody {
  readonly from?: string;
  readonly to?: string;
}

/** A new webhook endpoint (docs/protocol.md#webhooks). */
export interface WebhookBody {
  readonly url: string;
  /** At least one. */
  readonly events: readonly WebhookEventType[];
  /** The operator's choice of one author; left out, every author's events (an author's own, for an author token). */
  readonly author?: string;
}
