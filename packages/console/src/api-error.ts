/** An RFC 9457 problem as the admin API sends it (docs/protocol.md#errors). */
export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
}

/**
 * A failed admin call. `status` is the HTTP status, or 0 when no answer came (network down, the
 * service unreachable). `problem` is the body when it was a well-formed problem; `retryAfter` the
 * seconds of a 429's `Retry-After`. The message names the status only: never a key or a token.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly problem: Problem | null;
  readonly retryAfter: number | null;

  constructor(status: number, problem: Problem | null = null, retryAfter: number | null = null) {
    super(status === 0 ? 'admin API: no answer' : `admin API: status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.problem = problem;
    this.retryAfter = retryAfter;
  }
}

/** The body as a Problem when it has the four fields with their types, else null (never trusted further). */
export function asProblem(body: unknown): Problem | null {
  if (typeof body !== 'object' || body === null) return null;
  const { type, title, status, detail } = body as Record<string, unknown>;
  if (typeof type !== 'string' || typeof title !== 'string' || typeof detail !== 'string') return null;
  if (typeof status !== 'number') return null;
  return { type, title, status, detail };
}

/** `Retry-After` in whole seconds (RFC 9110 10.2.3; the service sends delay-seconds only), else null. */
export function retryAfterSeconds(header: string | null): number | null {
  if (header === null || !/^\d{1,9}$/.test(header.trim())) return null;
  return Number(header.trim());
}
