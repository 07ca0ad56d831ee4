import { isRecord, KEY_KINDS, type KeyKind } from '@licence/core';
import { type AdminError, adminError } from './errors.js';
import * as rules from './rules.js';
import { buyerLinkTtl } from './buyer-link.js';
import type {
  AuthorInput,
  BuyerLinkInput,
  IssueKeyInput,
  ProductChangeInput,
  ProductInput,
  RevokeInput,
  TokenInput,
  TransferInput,
  WebhookInput,
} from './types.js';
import { parseDateTime } from './parse-date-time.js';

/**
 * The admin API's JSON bodies read into key administration's typed inputs
 * (docs/protocol.md#administration), once, here. Each field is checked in the body's order, its
 * JSON type first and then its rule (rules.ts), so the first fault reported is the first
 * field's. Faults are `INVALID_FIELD` errors with an exact message naming the field (routes.ts
 * answers them with a 400). Optional fields may be absent or null (JSON clients often send null for
 * "not given").
 */

const bad = (field: string, problem: string): AdminError => adminError('INVALID_FIELD', field, problem);

/** The body as an object; an absent body (`undefined`) is an empty one. */
export function adminBody(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (!isRecord(body)) throw bad('body', 'expected a JSON object');
  return body;
}

const given = (value: unknown): boolean => value !== undefined && value !== null;

/** A required string field. */
export function requiredString(name: string, value: unknown): string {
  if (!given(value)) throw bad(name, 'is required');
  if (typeof value !== 'string') throw bad(name, 'expected a string');
  return value;
}

/** An optional string field: undefined when absent or null. */
export function optionalString(name: string, value: unknown): string | undefined {
  if (!given(value)) return undefined;
  if (typeof value !== 'string') throw bad(name, 'expected a string');
  return value;
}

/** `kind`: buyer, trial or dev (docs/protocol.md#key-lifecycle). */
export function kind(value: unknown): KeyKind {
  if (!given(value)) throw bad('kind', 'is required');
  const found = KEY_KINDS.find((candidate) => candidate === value);
  if (found === undefined) throw bad('kind', 'expected one of "buyer", "trial", "dev"');
  return found;
}

/** `sites`: a number, checked by `rules.sites`; undefined when absent. */
export function sites(value: unknown, keyKind: KeyKind): number | undefined {
  // Not a number: refused by the rule as a number that is not a whole one would be.
  const count = given(value) ? (typeof value === 'number' ? value : Number.NaN) : undefined;
  rules.sites(count, keyKind);
  return count;
}

/**
 * `expire`: an ISO 8601 date-time with a zone, to whole seconds; undefined when absent. Whether the
 * kind allows it is checked first; whether it lies in the future, by the operation.
 */
export function expire(value: unknown, keyKind: KeyKind): number | undefined {
  rules.expireAllowed(given(value), keyKind);
  if (!given(value)) return undefined;
  if (typeof value !== 'string') throw bad('expire', 'expected a string');
  const seconds = parseDateTime(value);
  if (seconds === null) {
    throw bad('expire', 'expected an ISO 8601 date-time with a time zone, such as 2026-12-31T23:59:59Z');
  }
  return seconds;
}

/**
 * `staging` of a product (docs/protocol.md#staging-hosts): an array of strings, each a host name
 * pattern (`rules.staging`); undefined when absent or null.
 */
export function staging(value: unknown): string[] | undefined {
  if (!given(value)) return undefined;
  if (!Array.isArray(value)) throw bad('staging', 'expected an array of host name patterns');
  const patterns: string[] = [];
  for (const entry of value) {
    if (typeof entry !== 'string') throw bad('staging', 'expected an array of strings');
    patterns.push(entry);
  }
  return rules.staging(patterns);
}

/**
 * `POST /admin/products`: `{id, author?, name, staging?}`. `author` is required of the operator and
 * may be left out by an author token (docs/protocol.md#authors): the operation decides, knowing who
 * asks.
 */
export function productInput(body: unknown): ProductInput {
  const input = adminBody(body);
  const id = rules.slug('id', requiredString('id', input.id));
  const author = optionalString('author', input.author);
  const checkedAuthor = author === undefined ? undefined : rules.text('author', author);
  const name = rules.text('name', requiredString('name', input.name));
  return { id, author: checkedAuthor, name, staging: staging(input.staging) };
}

/**
 * `PATCH /admin/products/:id`: `{name?, staging?}`, at least one of them given (absent and null are
 * not given, as everywhere: `staging: []` is what clears the list). Other fields are ignored, as in
 * every body.
 */
export function productChangeInput(body: unknown): ProductChangeInput {
  const input = adminBody(body);
  const name = optionalString('name', input.name);
  const change = { name: name === undefined ? undefined : rules.text('name', name), staging: staging(input.staging) };
  if (change.name === undefined && change.staging === undefined) {
    throw bad('body', 'expected at least one of name, staging');
  }
  return change;
}

/** `POST /admin/authors`: `{id, name}` (docs/protocol.md#authors). */
export function authorInput(body: unknown): AuthorInput {
  const input = adminBody(body);
  const id = rules.text('id', requiredString('id', input.id));
  return { id, name: rules.text('name', requiredString('name', input.name)) };
}

/** `POST /admin/authors/:id/tokens`: `{label?}` (docs/protocol.md#authors). */
export function tokenInput(body: unknown): TokenInput {
  const label = optionalString('label', adminBody(body).label);
  return { label: rules.label(label) ?? undefined };
}

/**
 * `?days=N` of the activity route (docs/protocol.md#activity), from the raw query string: absent is
 * undefined (the operation's default); given once, it must be digits, in range (`rules.days`);
 * given twice, it is refused rather than one of them picked. Other parameters are ignored.
 */
export function activityDays(query: string | undefined): number | undefined {
  const values = new URLSearchParams(query ?? '').getAll('days');
  if (values.length === 0) return undefined;
  if (values.length > 1) throw bad('days', `expected once, got ${values.length} times`);
  const value = values[0] ?? '';
  // Digits only: `Number` would take " 7", "1e2", "0x1f" and "".
  return rules.days(/^[0-9]{1,4}$/.test(value) ? Number(value) : Number.NaN);
}

/** `POST /admin/keys`: `{produit, kind, sites?, expire?}`. */
export function issueKeyInput(body: unknown): IssueKeyInput {
  const input = adminBody(body);
  const produit = rules.slug('produit', requiredString('produit', input.produit));
  const keyKind = kind(input.kind);
  return { produit, kind: keyKind, sites: sites(input.sites, keyKind), expire: expire(input.expire, keyKind) };
}

/** `POST /admin/keys/:cle/transfer`: `{from?, to?}`, as registrable domains. */
export function transferInput(body: unknown): TransferInput {
  const input = adminBody(body);
  const from = optionalString('from', input.from);
  const fromDomain = from === undefined ? undefined : rules.transferDomain('from', from);
  const to = optionalString('to', input.to);
  return { from: fromDomain, to: to === undefined ? undefined : rules.transferDomain('to', to) };
}

/**
 * `POST /admin/keys/:cle/buyer-link`: `{ttl?}` (docs/protocol.md#buyer-links), whole seconds from 60
 * to 2592000; a value that is not a number is refused as a number out of range would be.
 */
export function buyerLinkInput(body: unknown): BuyerLinkInput {
  const { ttl } = adminBody(body);
  if (!given(ttl)) return { ttl: undefined };
  return { ttl: buyerLinkTtl(typeof ttl === 'number' ? ttl : Number.NaN) };
}

/** `POST /admin/keys/:cle/revoke`: `{reason?}`. */
export function revokeInput(body: unknown): RevokeInput {
  const reason = optionalString('reason', adminBody(body).reason);
  return { reason: reason === undefined ? undefined : rules.text('reason', reason, rules.MAX_REASON_LENGTH) };
}

/**
 * `events` of a webhook (docs/protocol.md#webhooks): an array of strings, each a known event type
 * (`rules.webhookEvents`: at least one, kept each once in their canonical order).
 */
export function webhookEvents(value: unknown): WebhookInput['events'] {
  if (!given(value)) throw bad('events', 'is required');
  if (!Array.isArray(value)) throw bad('events', 'expected an array of event types');
  const names: string[] = [];
  for (const entry of value) {
    if (typeof entry !== 'string') throw bad('events', 'expected an array of strings');
    names.push(entry);
  }
  return rules.webhookEvents(names);
}

/**
 * `POST /admin/webhooks`: `{url, events, author?}` (docs/protocol.md#webhooks). `url` is read as a
 * string here and judged by the operation, which knows LICENCE_WEBHOOK_ALLOW_PRIVATE; `author` is
 * decided there too, knowing who asks (as a product's).
 */
export function webhookInput(body: unknown): WebhookInput {
  const input = adminBody(body);
  const url = requiredString('url', input.url);
  const events = webhookEvents(input.events);
  const author = optionalString('author', input.author);
  return { url, events, author: author === undefined ? undefined : rules.text('author', author) };
}
