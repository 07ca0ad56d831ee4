import { describe, expect, it } from 'vitest';
import { HttpError, isHttpError, PROBLEM_BASE, problemBody, PROBLEMS, problemType } from './problem.js';

describe('problem bodies (RFC 9457)', () => {
  it('builds {type, title, status, detail} with a stable type URI', () => {
    expect(problemBody('rate-limited', 'retry in 3 s')).toEqual({
      type: 'https://licence.dev/problems/rate-limited',
      title: 'Too many requests',
      status: 429,
      detail: 'retry in 3 s',
    });
  });

  it('has a forbidden kind for what a token may not do (docs/protocol.md#authors)', () => {
    expect(problemBody('forbidden', "only the operator's token may add authors")).toEqual({
      type: 'https://licence.dev/problems/forbidden',
      title: 'Forbidden',
      status: 403,
      detail: "only the operator's token may add authors",
    });
  });

  it('gives every kind a distinct type under the base, a title and a 4xx or 5xx status', () => {
    const types = new Set<string>();
    for (const kind of Object.keys(PROBLEMS) as (keyof typeof PROBLEMS)[]) {
      const type = problemType(kind);
      expect(type.startsWith(PROBLEM_BASE)).toBe(true);
      types.add(type);
      expect(PROBLEMS[kind].title.length).toBeGreaterThan(0);
      expect(PROBLEMS[kind].status).toBeGreaterThanOrEqual(400);
      expect(PROBLEMS[kind].status).toBeLessThan(600);
    }
    expect(types.size).toBe(Object.keys(PROBLEMS).length);
  });
});

describe('HttpError', () => {
  it('carries status, type, detail, headers and cause', () => {
    const cause = new Error('disk full');
    const error = new HttpError('service-unavailable', 'store down', { headers: { 'Retry-After': '5' }, cause });
    expect(error.status).toBe(503);
    expect(error.type).toBe(`${PROBLEM_BASE}service-unavailable`);
    expect(error.detail).toBe('store down');
    expect(error.headers).toEqual({ 'Retry-After': '5' });
    expect(error.cause).toBe(cause);
    expect(error.toProblem()).toEqual({
      type: `${PROBLEM_BASE}service-unavailable`,
      title: 'Service unavailable',
      status: 503,
      detail: 'store down',
    });
    expect(isHttpError(error)).toBe(true);
    expect(isHttpError(new Error('x'))).toBe(false);
    expect(error).toBeInstanceOf(Error);
  });

  it('lets a status override the kind default', () => {
    expect(new HttpError('internal-error', 'x', { status: 502 }).toProblem().status).toBe(502);
  });
});
