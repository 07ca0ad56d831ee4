/**
 * The JSON bodies of the admin API as the console reads and sends them (docs/protocol.md#administration,
 * #authors, #activity), each derived from @licence/service's table of operations by the operation's
 * name: `AdminOutput<Name>` is its answer, `AdminArguments<Name>` its call's arguments. Imported as
 * types only (erased from the bundle, which depends on nothing but Preact; api-operations.test.ts
 * checks it), so a change of the API that the console does not follow fails its type check, and
 * the service names no view type for the console's sake. A body the console sends is the
 * service's input where that is plain JSON; `IssueKeyBody` alone differs (`expire` is a string on
 * the wire, a number or a Date in the call).
 */

import type { AdminArguments, AdminOutput, WebhookEventType } from '@licence/service';

export type { KeyKind } from '@licence/core';
export type { WebhookEventType };

/** `GET admin/me`: who the token is. */
export type MeView = AdminOutput<'me'>;

/** `POST admin/products`. */
export type ProductInput = AdminArguments<'addProduct'>[0];
/** `PATCH admin/products/:id`: each field given replaces the stored one (at least one; `staging: []` clears it). */
export type ProductChange = AdminArguments<'updateProduct'>[1];
export type ProductView = AdminOutput<'addProduct'>;
/** A product of `GET admin/products`, with its installations' count. */
export type ProductSummary = AdminOutput<'listProducts'>['products'][number];

export type InstallationsView = AdminOutput<'installations'>;
/** One key of a product's installations. */
export type InstallationKey = InstallationsView['keys'][number];
export type ActivityView = AdminOutput<'activity'>;
/** One UTC day of a product's activity (docs/protocol.md#activity). */
export type ActivityDay = ActivityView['days'][number];

/** `POST admin/keys`: the service's input, but `expire` as on the wire. */
export type IssueKeyBody = Omit<AdminArguments<'issueKey'>[0], 'expire'> & {
  /** RFC 3339 with a zone; required for a trial, refused otherwise. */
  readonly expire?: string;
};
export type IssuedKey = AdminOutput<'issueKey'>;
export type KeyView = AdminOutput<'showKey'>;
/** A key's state as the admin sees it (`expiree`: a trial past its end). */
export type KeyState = KeyView['status'];
export type DomainView = KeyView['domains'][number];
/** `POST admin/keys/:cle/transfer`. */
export type TransferBody = NonNullable<AdminArguments<'transferKey'>[1]>;
export type RevokedKey = AdminOutput<'revokeKey'>;
/** `POST admin/keys/:cle/buyer-link` (docs/protocol.md#buyer-links): `ttl` in seconds, the service's default when left out. */
export type BuyerLinkBody = NonNullable<AdminArguments<'buyerLink'>[2]>;
/** The buyer's page, its token inside, shown once; and when the link dies. */
export type BuyerLinkView = AdminOutput<'buyerLink'>;

export type AuthorView = AdminOutput<'addAuthor'>;
export type TokenView = AdminOutput<'listAuthorTokens'>['tokens'][number];
/** A new author token, shown this once. */
export type NewTokenView = AdminOutput<'createAuthorToken'>;

/** A new webhook endpoint (docs/protocol.md#webhooks). */
export type WebhookBody = AdminArguments<'addWebhook'>[0];
export type WebhookView = AdminOutput<'listWebhooks'>['webhooks'][number];
/** A new endpoint and its secret, shown this once. */
export type NewWebhookView = AdminOutput<'addWebhook'>;
export type RotatedSecretView = AdminOutput<'rotateWebhookSecret'>;
export type WebhookDeliveriesView = AdminOutput<'webhookDeliveries'>;
export type WebhookDeliveryView = WebhookDeliveriesView['deliveries'][number];
export type WebhookAttemptView = WebhookDeliveryView['attempts'][number];
