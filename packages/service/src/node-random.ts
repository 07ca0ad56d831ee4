import { randomBytes as nodeRandomBytes } from 'node:crypto';
import type { RandomBytes } from '@licence/core';

/** Node's CSPRNG as core's `RandomBytes`: what every adapter hands `createService` and `createKeyAdmin`. */
export const randomBytes: RandomBytes = (length) => new Uint8Array(nodeRandomBytes(length));
