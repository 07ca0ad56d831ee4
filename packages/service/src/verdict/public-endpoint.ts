import { normalizeKey, parseHost, validateNonce, validateProduit } from '@licence/core';
import { clientIp } from '../http/index.js';
import { rateLimitWait } from '../http/index.js';
import { HttpError } from '../http/index.js';
import {
  checkBodySize,
  checkContentEncoding,
  checkJsonContentType,
  field,
  MAX_BODY_BYTES,
  parseJsonObject,
} from '../http/index.js';
import { emptyResponse, jsonResponse, type Headers } from '../http/index.js';
import type { ServiceContext } from '../http/index.js';
import type { ServiceRequest, ServiceResponse } from '../http/index.js';
import { isBlockedUserAgent } from './user-agents.js';
import { answerVerdict, type VerdictInput } from './verdict.js';

/** The public endpoint's path, as the docs and the CLI's examples spell it. */
export const LICENCE_PATH = '/api/licence';

/** The two spellings of the public endpoint (docs/protocol.md#request: same handler). */
export const PUBLIC_PATHS: readonly string[] = [LICENCE_PATH, '/api/license'];

/** docs/protocol.md#request: OPTIONS and POST only. */
export const PUBLIC_ALLOW = 'OPTIONS, POST';

/** On every answer of the public endpoint, errors included (docs/protocol.md#request). */
export const CORS_HEADERS: Headers = { 'Access-Control-Allow-Origin': '*' };

/** The preflight answer (docs/protocol.md#request): browsers may POST JSON from any origin. */
const PREFLIGHT_HEADERS: Headers = {
  Allow: PUBLIC_ALLOW,
  ...CORS_HEADERS,
  'Access-Control-Allow-Methods': PUBLIC_ALLOW,
  'Access-Control-Allow-Headers': 'Content-Type',
  // A day: the answer never changes while the service runs.
  'Access-Control-Max-Age': '86400',
};

/**
 * `POST /api/licence` (and `/api/license`), after the path matched. The order of
 * docs/protocol.md#request, the first failing check answers: method 405, User-Agent 403, rate limit
 * 429, body size 413, content coding and content type 415, body 400; then the signed verdict.
 * OPTIONS answers before any of them and is neither filtered nor counted
 * (docs/protocol.md#user-agent-filter, #rate-limit). 405 and 403 do not count toward the rate limit; everything after it does, 413
 * included.
 *
 * Errors are thrown as HttpError and answered by the caller, with `CORS_HEADERS`.
 */
export async function handlePublic(context: ServiceContext, request: ServiceRequest): Promise<ServiceResponse> {
  if (request.method === 'OPTIONS') return emptyResponse(204, PREFLIGHT_HEADERS);
  if (request.method !== 'POST') {
    throw new HttpError('method-not-allowed', 'only POST and OPTIONS are allowed on this path', {
      headers: { Allow: PUBLIC_ALLOW },
    });
  }
  if (isBlockedUserAgent(request.headers['user-agent'], context.blockedUserAgents)) {
    throw new HttpError(
      'user-agent-blocked',
      'send a User-Agent that names your product (for example MyTheme/1.2), not a library default',
    );
  }

  const ip = clientIp(request.ip, request.headers['x-forwarded-for'], context.trust);
  const retryAfter = await rateLimitWait(context, 'verdict', ip);
  if (retryAfter > 0) {
    throw new HttpError('rate-limited', `too many requests from this address; retry in ${retryAfter} s`, {
      headers: { 'Retry-After': String(retryAfter) },
    });
  }

  const envelope = await answerVerdict(context, { ...parseVerdictBody(request), ip });
  return jsonResponse(200, envelope, CORS_HEADERS);
}

/**
 * The body checks of docs/protocol.md#request, in its order: size 413, content coding (when there
 * is a body) then content type 415, then the JSON and its fields 400. Field order: the key first
 * (docs/protocol.md#key-normalisation: its length is checked before anything else), then the host,
 * then our two optional fields. Core's messages never hold the key.
 */
function parseVerdictBody(request: ServiceRequest): Omit<VerdictInput, 'ip'> {
  const bytes = checkBodySize(request.body, MAX_BODY_BYTES);
  if (bytes.length > 0) checkContentEncoding(request.headers['content-encoding']);
  checkJsonContentType(request.headers['content-type']);
  const body = parseJsonObject(bytes);
  if (body.cle === undefined) throw new HttpError('invalid-request', 'cle: is required');
  const key = field(() => normalizeKey(body.cle));
  if (body.url === undefined) throw new HttpError('invalid-request', 'url: is required');
  const host = field(() => parseHost(body.url));
  const produit = field(() => validateProduit(body.produit));
  const nonce = field(() => validateNonce(body.nonce));
  return { key, host, produit, nonce };
}
