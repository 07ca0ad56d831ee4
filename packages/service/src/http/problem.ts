/**
 * Problem details (RFC 9457) and the one HTTP error of the service (CONTRIBUTING.md#code-style: one
 * small error family: core's `ValidationError` for bad input, this `HttpError` for answers).
 *
 * Every error body of the service is `application/problem+json` with `{type, title, status,
 * detail}` (docs/protocol.md#errors). `type` is a stable URI under `PROBLEM_BASE`: clients and
 * tests may switch on it; `title` is fixed per type; `detail` says what was wrong with this
 * request and never holds a licence key, a signing key or a token.
 */

/**
 * Base of every problem `type` URI. RFC 9457 3.1.1 lets a type be any URI that identifies the
 * problem; these are stable identifiers, documented in the package README, and need not resolve.
 */
export const PROBLEM_BASE = 'https://licence.dev/problems/';

/** Each problem type: its `type` slug (after `PROBLEM_BASE`), fixed title and usual status. */
export const PROBLEMS = {
  'not-found': { title: 'Not found', status: 404 },
  'method-not-allowed': { title: 'Method not allowed', status: 405 },
  'user-agent-blocked': { title: 'User-Agent not accepted', status: 403 },
  'rate-limited': { title: 'Too many requests', status: 429 },
  'body-too-large': { title: 'Request body too large', status: 413 },
  'unsupported-media-type': { title: 'Unsupported media type', status: 415 },
  // Sent by an adapter, not by the service: the HTTP parser refuses the headers before any route
  // runs (RFC 6585 5). Its own type, so a client can tell it from a bad body.
  'headers-too-large': { title: 'Request headers too large', status: 431 },
  'invalid-request': { title: 'Invalid request', status: 400 },
  unauthorized: { title: 'Unauthorized', status: 401 },
  // An author token asking for what only the operator, or another author, may do
  // (docs/protocol.md#authors).
  forbidden: { title: 'Forbidden', status: 403 },
  conflict: { title: 'Conflict', status: 409 },
  // A buyer link past its expiry, or whose key is no longer alive (docs/protocol.md#buyer-links): it
  // existed and will not again, so not a 404.
  gone: { title: 'Gone', status: 410 },
  'service-unavailable': { title: 'Service unavailable', status: 503 },
  'internal-error': { title: 'Internal error', status: 500 },
} as const satisfies Record<string, { readonly title: string; readonly status: number }>;

export type ProblemKind = keyof typeof PROBLEMS;

/** The RFC 9457 body the service sends. */
export interface ProblemBody {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
}

/** `PROBLEM_BASE` + slug: the full `type` URI of a problem kind. */
export function problemType(kind: ProblemKind): string {
  return PROBLEM_BASE + kind;
}

/** The body of a problem of `kind`; `status` defaults to the kind's usual status. */
export function problemBody(kind: ProblemKind, detail: string, status: number = PROBLEMS[kind].status): ProblemBody {
  return { type: problemType(kind), title: PROBLEMS[kind].title, status, detail };
}

/**
 * An answer other than success, thrown inside a handler and turned into problem+json at the top.
 * `headers` carries what the status needs (`Allow` on 405, `Retry-After` on 429,
 * `WWW-Authenticate` on 401). `cause` keeps the underlying error for the log, never for the body.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    readonly kind: ProblemKind,
    /** Shown to the caller as `detail`: must never hold a key or a token. */
    readonly detail: string,
    options: {
      readonly status?: number;
      readonly headers?: Readonly<Record<string, string>>;
      readonly cause?: unknown;
    } = {},
  ) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status ?? PROBLEMS[kind].status;
    this.headers = options.headers ?? {};
  }

  /** The RFC 9457 body of this error. */
  toProblem(): ProblemBody {
    return problemBody(this.kind, this.detail, this.status);
  }

  /** The full `type` URI. */
  get type(): string {
    return problemType(this.kind);
  }
}

/** True for an `HttpError`. */
export function isHttpError(error: unknown): error is HttpError {
  return error instanceof HttpError;
}
