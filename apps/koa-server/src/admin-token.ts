import type { RandomBytes } from '@licence/core';
import { randomBytes } from '@licence/service';

/** docs/protocol.md#administration: the bytes of a new admin token, from node:crypto's CSPRNG. */
export const ADMIN_TOKEN_BYTES = 32;

/**
 * `licence token`: a new LICENCE_ADMIN_TOKEN, 32 random bytes in base64url without padding (RFC
 * 4648 5), 43 characters, each one a Bearer token may hold (RFC 6750 2.1): the token meets the
 * service's rule of LICENCE_ADMIN_TOKEN (fewer than ten different characters among 43 random ones
 * happens about once in 10^26 draws) and can be pasted as it is.
 */
export function newAdminToken(random: RandomBytes = randomBytes): string {
  return Buffer.from(random(ADMIN_TOKEN_BYTES)).toString('base64url');
}
