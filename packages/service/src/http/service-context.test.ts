import { describe, expect, it } from 'vitest';
import { HttpError } from './problem.js';
import { callOr503, nowSeconds } from './service-context.js';

describe('service context helpers', () => {
  it('nowSeconds floors the millisecond clock', () => {
    expect(nowSeconds({ now: () => 1_999 })).toBe(1);
  });

  it('callOr503 passes answers through and turns a rejection into a 503 with its cause', async () => {
    expect(await callOr503(() => Promise.resolve(4))).toBe(4);
    const cause = new Error('connection refused');
    const error = await callOr503(() => Promise.reject(cause)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 503, detail: 'the key store is unavailable; try again later', cause });
  });
});
