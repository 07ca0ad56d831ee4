import { DEFAULT_VERDICT_SETTINGS } from '@licence/core';
import { optionalString, requiredString } from '../admin/index.js';
import { type AdminError, isAdminError } from '../admin/index.js';
import { toHttpError } from '../admin/index.js';
import { type BuyerReply, buyerJson, endAnswer, pageAnswer } from './answer.js';
import { keyView, type OpenKey } from './key-view.js';
import { linkedKey } from './link-key.js';
import { buyerRateLimited } from './rate-limit.js';
import type { BuyerProblemCode } from './page-views.js';
import { buyerTransfersLeft, daysUntilTransfer } from './transfer-limit.js';
import { DAY_SECONDS } from '../ports/index.js';
import { type TransferDomains, transferDomains, transferStored } from '../admin/index.js';
import type { TransferInput } from '../admin/index.js';
import { HttpError } from '../http/index.js';
import { isSameOrigin, pageOrigin } from '../http/index.js';
import {
  checkBodySize,
  checkContentEncoding,
  isJsonContentType,
  MAX_BODY_BYTES,
  parseJsonObject,
} from '../http/index.js';
import { nowSeconds, type ServiceContext } from '../http/index.js';
import type { ServiceRequest, ServiceResponse } from '../http/index.js';

/**
 * `POST /buyer/:token/transfer` (docs/protocol.md#buyer-links): the buyer moves a site to a new
 * domain (`from`, `to`) or frees it (`from` alone). A JSON body `{from, to?}` is answered in JSON
 * (200 `{cle}`, or a problem); a form (`application/x-www-form-urlencoded`) with a page: the new key
 * shown once, or the key's page again with what went wrong, or an end page.
 *
 * In this order: the `Origin` must be the buyer page's own (403: a form posted from elsewhere), the
 * client address under its buyer rate limit (429 with `Retry-After`, rate-limit.ts), the
 * link open (404, 410), the body readable (413, 415, 400), a transfer left to the lineage (429 with
 * `Retry-After`), then the transfer itself with the rules every transfer follows
 * (admin/replace.ts: 400 for a bad domain, 409 for a `from` not bound or a `to` beyond the
 * allowance), `initiatedBy: "buyer"`. Of two posts at once (two tabs), the store lets one replace
 * the key; the other finds it ended (410).
 */

const FORM = 'application/x-www-form-urlencoded';

/** How a POST is answered: JSON to JSON, a page to anything else (a browser's form). */
export function transferFormat(request: ServiceRequest): BuyerReply['format'] {
  return isJsonContentType(request.headers['content-type']) ? 'json' : 'html';
}

export async function handleTransfer(
  context: ServiceContext,
  request: ServiceRequest,
  token: string,
  reply: BuyerReply,
): Promise<ServiceResponse> {
  const origin = pageOrigin(context.publicUrl, request, context.trust);
  if (!isSameOrigin(request.headers.origin, origin)) return endAnswer('origin', reply);
  const overLimit = await buyerRateLimited(context, request, reply);
  if (overLimit !== null) return overLimit;
  const now = nowSeconds(context.clock);
  const linked = await linkedKey(context, token, now);
  if (linked.status === 'end') return endAnswer(linked.reason, reply, { authorName: linked.authorName });
  const body = readTransferBody(request, reply.format);
  const { lineage } = linked.stored;
  const limit = context.buyerTransfersPer30Days;
  if ((await buyerTransfersLeft(context.store, lineage, limit, now)) === 0) {
    const days = await daysUntilTransfer(context.store, lineage, limit, now);
    const headers = days === null ? {} : { 'Retry-After': String(days * DAY_SECONDS) };
    return endAnswer('limit', reply, { authorName: linked.authorName, headers });
  }
  try {
    const domains = transferDomains(fieldsOf(body));
    const { cle } = await transferStored(context, linked.stored, domains, 'buyer');
    return done(context, linked, { cle, domains }, reply);
  } catch (error) {
    if (!isAdminError(error)) throw error;
    return refused(context, error, { linked, body, token, now }, reply);
  }
}

/** The body's `from` and `to`, as sent: not checked yet. */
interface TransferBody {
  readonly from: unknown;
  readonly to: unknown;
}

/** The body's fields, from JSON or from a form; 413, 415 or 400 when it cannot be read. */
function readTransferBody(request: ServiceRequest, format: BuyerReply['format']): TransferBody {
  const bytes = checkBodySize(request.body, MAX_BODY_BYTES);
  checkContentEncoding(request.headers['content-encoding']);
  if (format === 'json') {
    const json = parseJsonObject(bytes);
    return { from: json.from, to: json.to };
  }
  const [type = ''] = (request.headers['content-type'] ?? '').split(';');
  if (type.trim().toLowerCase() !== FORM) {
    throw new HttpError('unsupported-media-type', `Content-Type must be application/json or ${FORM}`);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // The decoder's error says no more than this (and it is the caller's fault).
    throw new HttpError('invalid-request', 'body: not valid UTF-8');
  }
  const form = new URLSearchParams(text);
  // The "free this site" form has no `to` field; the "move" form's `to` is never absent, even empty.
  return { from: form.get('from') ?? undefined, to: form.get('to') ?? undefined };
}

/** `from` (required) and `to` as strings; a fault is the `INVALID_FIELD` of admin/fields.ts, a 400. */
function fieldsOf(body: TransferBody): TransferInput {
  return { from: requiredString('from', body.from), to: optionalString('to', body.to) };
}

/** The transfer was made: the new key, in JSON or on its page (shown this once). */
function done(
  context: Pick<ServiceContext, 'settings'>,
  linked: OpenKey,
  made: { readonly cle: string; readonly domains: TransferDomains },
  reply: BuyerReply,
): ServiceResponse {
  if (reply.format === 'json') return buyerJson(200, { cle: made.cle });
  const { revalidateAfter } = context.settings ?? DEFAULT_VERDICT_SETTINGS;
  return pageAnswer(
    200,
    {
      kind: 'done',
      productName: linked.productName,
      cle: made.cle,
      from: made.domains.from,
      to: made.domains.to,
      oldSiteStopsWithin: revalidateAfter,
    },
    reply,
  );
}

/** Which refusals of a transfer the key's page explains, by code. */
const PROBLEM_CODES: Readonly<Partial<Record<AdminError['code'], BuyerProblemCode>>> = {
  INVALID_FIELD: 'bad-domain',
  DOMAIN_NOT_BOUND: 'not-bound',
  TOO_MANY_DOMAINS: 'too-many-domains',
};

/**
 * A refused transfer: a bad domain (400) or one the key cannot take (409) on the key's page again
 * (a problem in JSON), a key that ended meanwhile on its end page; a store fault is a 503.
 */
async function refused(
  context: ServiceContext,
  error: AdminError,
  attempt: { readonly linked: OpenKey; readonly body: TransferBody; readonly token: string; readonly now: number },
  reply: BuyerReply,
): Promise<ServiceResponse> {
  const { linked, body } = attempt;
  if (error.code === 'KEY_NOT_ALIVE') return endAnswer('key-ended', reply, { authorName: linked.authorName });
  const code = PROBLEM_CODES[error.code];
  // A store fault (503), or a refusal that is none of a buyer's: the problem it is.
  if (code === undefined || reply.format === 'json') throw toHttpError(error);
  const problem = {
    code,
    detail: error.message,
    // What was typed, so that the form shows it again (strings only).
    ...(typeof body.from === 'string' ? { from: body.from } : {}),
    ...(typeof body.to === 'string' ? { to: body.to } : {}),
  };
  const view = await keyView(context, linked, { token: attempt.token, place: reply.place, now: attempt.now }, problem);
  return pageAnswer(code === 'bad-domain' ? 400 : 409, view, reply);
}
