import { randomBytes as nodeRandomBytes } from 'node:crypto';
import type { RandomBytes } from '@licence/core';

/**
 * Bytes are drawn from Node's CSPRNG a pool at a time: one call costs about 3 µs on this project's
 * machines whatever its size, and a new binding's webhook event (webhooks/ids.ts) asks for 12 bytes
 * on the verdict path. Each byte of a pool is handed out once, copied; a request larger than the
 * pool gets its own call.
 */
const POOL_BYTES = 4096;
let pool: Buffer = Buffer.alloc(0);
let offset = 0;

/** Node's CSPRNG as core's `RandomBytes`: what every adapter hands `createService` and `createKeyAdmin`. */
export const randomBytes: RandomBytes = (length) => {
  if (length > POOL_BYTES) return new Uint8Array(nodeRandomBytes(length));
  if (offset + length > pool.length) {
    pool = nodeRandomBytes(POOL_BYTES);
    offset = 0;
  }
  const bytes = new Uint8Array(pool.subarray(offset, offset + length));
  offset += length;
  return bytes;
};
