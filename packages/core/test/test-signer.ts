import { loadSignatureVectors } from '@licence/vectors';
import { decodeBase64 } from '../src/base64.js';
import type { Donnees } from '../src/donnees.js';
import { createNobleSigner } from '../src/ed25519.js';

/**
 * What core's tests and benchmarks sign with: the TEST ONLY keys of @licence/vectors
 * (signatures.json), public and printable on purpose. Never sign anything real with them.
 */

const { keys, cases } = loadSignatureVectors();

/** The 32-byte seed of the primary TEST ONLY key ("TEST ONLY - never sign real data"). */
export const primarySeed = decodeBase64(keys.primary.seed, 'seed', 32);
/** Core's noble signer over the primary TEST ONLY key, the key every vector trusts. */
export const primarySigner = createNobleSigner(primarySeed);
/** The public key of the second trusted key (key rotation). */
export const rotationPublicKey = decodeBase64(keys.rotation.publicKey, 'key', 32);
/** A signer no vector trusts ("TEST ONLY - an attacker's seed!!"). */
export const untrustedSigner = createNobleSigner(decodeBase64(keys.untrusted.seed, 'seed', 32));

/** signatures.json's signed verdict "ok on the registrable domain" (docs/protocol.md#verdict). */
const registrableDomainCase = cases.find((c) => c.kind === 'sign' && c.name === 'ok on the registrable domain');
if (registrableDomainCase?.kind !== 'sign') throw new Error('signatures.json: no "ok on the registrable domain" case');
const okOnRegistrableDomain = registrableDomainCase.donnees as unknown as Donnees;

/**
 * A positive verdict for exemple.fr, issued 2026-11-22T10:14:00Z for a day with 30 days of grace
 * (signatures.json, "ok on the registrable domain"), with `fields` changed or added.
 */
export function okDonnees(fields: Partial<Donnees> = {}): Donnees {
  return { ...okOnRegistrableDomain, ...fields };
}
