import { describe, expect, it } from 'vitest';
import { createBatchQueue } from './batch-queue.js';

describe('createBatchQueue', () => {
  it('sends the calls of one event-loop turn together, in order, and gives each its own result', async () => {
    const batches: number[][] = [];
    const queue = createBatchQueue<number, string>(async (items) => {
      batches.push([...items]);
      return items.map((n) => `r${n}`);
    }, 100);
    const results = await Promise.all([1, 2, 3].map((n) => queue.push(n)));
    expect(results).toEqual(['r1', 'r2', 'r3']);
    expect(batches).toEqual([[1, 2, 3]]);
    expect(await queue.push(4)).toBe('r4');
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it('splits a long queue into batches of at most maxBatch', async () => {
    const sizes: number[] = [];
    const queue = createBatchQueue<number, number>(async (items) => {
      sizes.push(items.length);
      return items.map((n) => n * 2);
    }, 4);
    const results = await Promise.all(Array.from({ length: 10 }, (_, n) => queue.push(n)));
    expect(results).toEqual(Array.from({ length: 10 }, (_, n) => n * 2));
    expect(sizes).toEqual([4, 4, 2]);
  });

  it('rejects every call of a failed batch with its error, and later batches still run', async () => {
    let fail = true;
    const queue = createBatchQueue<number, number>(async (items) => {
      if (fail) throw new Error('connection terminated');
      return [...items];
    }, 10);
    const failed = await Promise.allSettled([queue.push(1), queue.push(2)]);
    expect(failed.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : 'ok'))).toEqual([
      'connection terminated',
      'connection terminated',
    ]);
    fail = false;
    expect(await queue.push(3)).toBe(3);
  });

  it('turns a runner that throws synchronously or miscounts into a rejection, never a hang', async () => {
    const throwing = createBatchQueue<number, number>(() => {
      throw new Error('bad statement');
    }, 10);
    await expect(throwing.push(1)).rejects.toThrow('bad statement');
    const short = createBatchQueue<number, number>(async () => [1], 10);
    const settled = await Promise.allSettled([short.push(1), short.push(2)]);
    expect(settled.every((r) => r.status === 'rejected')).toBe(true);
    expect(short.pending).toBe(0);
  });

  it('refuses a maxBatch that is not a positive integer', () => {
    expect(() => createBatchQueue(async () => [], 0)).toThrow('maxBatch: expected an integer >= 1, got 0');
  });
});
