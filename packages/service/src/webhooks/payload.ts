import {
  CROCKFORD_ALPHABET,
  formatQuand,
  KEY_KINDS,
  KEY_LENGTH,
  type KeyKind,
  typeName,
  ValidationError,
} from '@licence/core';

/**
 * What a webhook delivery says (docs/protocol.md#webhooks): the body `{type, timestamp, data}`, and
 * one data builder per event. The builders copy named fields only, never spread their input (an
 * `IssuedKey` holds the full key in `cle`), and check that `hint` is a hint: a key appears in a
 * delivery as its four-character hint (docs/protocol.md#privacy), except the new key of a
 * regeneration or transfer, which the shop must learn to hand it to its buyer: `data.cle`.
 */

export const WEBHOOK_EVENT_TYPES = [
  'key.issued',
  'key.regenerated',
  'key.transferred',
  'key.revoked',
  'domain.bound',
  'verdict.refused',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Who replaced a key: the operator, the author (its token or console), or the buyer (their own sites). */
export const WEBHOOK_INITIATORS = ['operator', 'author', 'buyer'] as const;
export type WebhookInitiator = (typeof WEBHOOK_INITIATORS)[number];

export interface KeyIssuedData {
  readonly hint: string;
  readonly produit: string;
  readonly kind: KeyKind;
  readonly sites: number;
  /** ISO 8601 end of a trial; null otherwise. */
  readonly expire: string | null;
}

export interface KeyReplacedData {
  /** The old key's hint. */
  readonly hint: string;
  /** The new key, formatted (`XXXXX-XXXXX-...`): the one full key a delivery carries. */
  readonly cle: string;
  readonly produit: string;
  readonly initiatedBy?: WebhookInitiator;
}

export interface KeyRevokedData {
  readonly hint: string;
  readonly produit: string;
  /** ISO 8601. */
  readonly quand: string;
  /** The reason given with the revocation (as the admin API keeps it), null when none was. */
  readonly reason: string | null;
}

export interface DomainBoundData {
  readonly hint: string;
  readonly produit: string;
  readonly domain: string;
}

/** `verdict.refused` is sent for `autre_domaine` only: the buyer outgrew the key. */
export interface VerdictRefusedData {
  readonly hint: string;
  readonly produit: string;
  readonly motif: 'autre_domaine';
  readonly hote: string;
}

export interface WebhookEventData {
  readonly 'key.issued': KeyIssuedData;
  readonly 'key.regenerated': KeyReplacedData;
  readonly 'key.transferred': KeyReplacedData;
  readonly 'key.revoked': KeyRevokedData;
  readonly 'domain.bound': DomainBoundData;
  readonly 'verdict.refused': VerdictRefusedData;
}

/** The JSON body of an event: `{type, timestamp, data}`, `timestamp` ISO 8601 UTC to the second. */
export function webhookBody<T extends WebhookEventType>(
  type: T,
  timestampSeconds: number,
  data: WebhookEventData[T],
): string {
  if (!(WEBHOOK_EVENT_TYPES as readonly unknown[]).includes(type)) {
    throw new ValidationError('type', `type: expected one of ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  }
  const timestamp = formatQuand(timestampSeconds);
  return JSON.stringify({ type, timestamp, data });
}

export function keyIssuedData(input: KeyIssuedData): KeyIssuedData {
  const kind = text('kind', input.kind);
  if (!(KEY_KINDS as readonly string[]).includes(kind)) {
    throw new ValidationError('kind', `kind: expected one of ${KEY_KINDS.join(', ')}`);
  }
  if (!Number.isSafeInteger(input.sites) || input.sites < 0) {
    const got = typeof input.sites === 'number' ? String(input.sites) : typeName(input.sites);
    throw new ValidationError('sites', `sites: expected a whole number, got ${got}`);
  }
  const expire = input.expire === null ? null : text('expire', input.expire);
  return {
    hint: hint(input.hint),
    produit: text('produit', input.produit),
    kind: input.kind,
    sites: input.sites,
    expire,
  };
}

/** `key.regenerated` and `key.transferred`: the old key's hint and the new key in full. */
export function keyReplacedData(input: KeyReplacedData): KeyReplacedData {
  const data = { hint: hint(input.hint), cle: newKey(input.cle), produit: text('produit', input.produit) };
  if (input.initiatedBy === undefined) return data;
  if (!(WEBHOOK_INITIATORS as readonly unknown[]).includes(input.initiatedBy)) {
    throw new ValidationError('initiatedBy', `initiatedBy: expected one of ${WEBHOOK_INITIATORS.join(', ')}`);
  }
  return { ...data, initiatedBy: input.initiatedBy };
}

/**
 * docs/protocol.md#body: the reason goes to the endpoints of the key's author and of every author,
 * who read it on `GET /admin/keys/:cle` already; it is still never logged.
 */
export function keyRevokedData(input: KeyRevokedData): KeyRevokedData {
  return {
    hint: hint(input.hint),
    produit: text('produit', input.produit),
    quand: text('quand', input.quand),
    reason: input.reason === null ? null : text('reason', input.reason),
  };
}

export function domainBoundData(input: DomainBoundData): DomainBoundData {
  return { hint: hint(input.hint), produit: text('produit', input.produit), domain: text('domain', input.domain) };
}

export function verdictRefusedData(input: VerdictRefusedData): VerdictRefusedData {
  if (input.motif !== 'autre_domaine') {
    throw new ValidationError('motif', 'motif: verdict.refused is sent for autre_domaine only');
  }
  return {
    hint: hint(input.hint),
    produit: text('produit', input.produit),
    motif: input.motif,
    hote: text('hote', input.hote),
  };
}

const HINT = /^[0-9A-Z]{4}$/;

// A full key passed as the hint by mistake is refused, not cut: the caller's bug must show.
function hint(value: unknown): string {
  if (typeof value !== 'string' || !HINT.test(value)) {
    throw new ValidationError('hint', `hint: expected the key's four-character hint, got ${describe(value)}`);
  }
  return value;
}

// The formatted key, as the admin API shows it once (`XXXXX-XXXXX-XXXXX-XXXXX-XXXXX`): one spelling.
const FORMATTED_KEY = new RegExp(`^[${CROCKFORD_ALPHABET}]{5}(?:-[${CROCKFORD_ALPHABET}]{5}){${KEY_LENGTH / 5 - 1}}$`);

function newKey(value: unknown): string {
  if (typeof value !== 'string' || !FORMATTED_KEY.test(value)) {
    throw new ValidationError('cle', `cle: expected a formatted ${KEY_LENGTH}-character key, got ${describe(value)}`);
  }
  return value;
}

function text(field: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    throw new ValidationError(field, `${field}: expected a non-empty string, got ${describe(value)}`);
  }
  return value;
}

// The type, or a string's length: never the value, which may be a key.
function describe(value: unknown): string {
  return typeof value === 'string' ? `a string of ${value.length} characters` : typeName(value);
}
