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
