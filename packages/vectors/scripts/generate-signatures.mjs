// Writes cases/signatures.json. Signatures are computed with node:crypto (OpenSSL), an
// implementation independent of @licence/core (which uses @noble/ed25519), so core's tests
// check one implementation against the other. Expected verification results are stated by hand.
// Run: node scripts/generate-signatures.mjs
import { writeFileSync } from 'node:fs';
import { canonical, keys, signBytes, signWith } from './test-keys.mjs';

const EMIS = 1795342440; // 2026-11-22T10:14:00Z
const base = {
  domaine: 'exemple.fr',
  emis: EMIS,
  essai: false,
  hote: 'exemple.fr',
  motif: '',
  ok: true,
  quand: '',
  revalider: EMIS + 86400,
  sursis: 2592000,
};
const refusal = (motif, extra = {}) => ({ ...base, ok: false, motif, ...extra });

const signCases = [
  ['ok on the registrable domain', base],
  ['ok on a subdomain', { ...base, hote: 'boutique.exemple.fr' }],
  ['ok on a staging host, essai', { ...base, hote: 'staging.exemple.fr', essai: true }],
  ['ok on localhost with a dev key', { ...base, hote: 'localhost', domaine: 'localhost', essai: true }],
  ['ok on a public IPv4 address', { ...base, hote: '203.0.113.7', domaine: '203.0.113.7' }],
  ['ok on an IPv6 address', { ...base, hote: '[2001:db8::1]', domaine: '[2001:db8::1]' }],
  ['ok on a punycode host', { ...base, hote: 'xn--bcher-kva.de', domaine: 'xn--bcher-kva.de' }],
  ['ok with produit', { ...base, produit: 'mon-theme' }],
  ['ok with produit and nonce', { ...base, produit: 'mon-theme', nonce: 'n0nce_n0nce-n0nce-123' }],
  ['autre_domaine with one bound domain', refusal('autre_domaine', { hote: 'autre.fr', domaine: 'exemple.fr' })],
  ['autre_domaine with three bound domains', refusal('autre_domaine', { hote: 'd.fr', domaine: 'a.fr, b.fr, c.fr' })],
  ['transfert with quand', refusal('transfert', { quand: '2026-11-20T08:00:00Z' })],
  ['regeneration with quand', refusal('regeneration', { quand: '2026-01-01T00:00:00Z' })],
  ['revocation with quand', refusal('revocation', { quand: '2026-11-22T10:14:00Z' })],
  ['expiree with quand', refusal('expiree', { quand: '2026-10-31T23:59:59Z' })],
  ['inconnue with an empty domaine', refusal('inconnue', { domaine: '' })],
  [
    'inconnue with produit and nonce',
    refusal('inconnue', { domaine: '', produit: 'autre-theme', nonce: 'AAAAAAAAAAAAAAAA' }),
  ],
  ['emis at 0', { ...base, emis: 0, revalider: 86400 }],
  ['emis after 2038', { ...base, emis: 4102444800, revalider: 4102531200 }],
  ['custom revalider and sursis', { ...base, revalider: EMIS + 3600, sursis: 604800 }],
];

const good = { donnees: base, signature: signWith('primary', base) };
const withProduit = { ...base, produit: 'mon-theme', nonce: 'n0nce_n0nce-n0nce-123' };
const goodProduit = { donnees: withProduit, signature: signWith('primary', withProduit) };
const sigBytes = Buffer.from(good.signature, 'base64');
const L = (1n << 252n) + 27742317777372353535851937790883648493n;
const le = (buf) => buf.reduceRight((acc, byte) => (acc << 8n) | BigInt(byte), 0n);
const toLe = (n) => Buffer.from(Array.from({ length: 32 }, (_, i) => Number((n >> BigInt(8 * i)) & 0xffn)));
const sPlusL = Buffer.concat([sigBytes.subarray(0, 32), toLe(le(sigBytes.subarray(32)) + L)]).toString('base64');
const extra = { ...base, version: 2 };
const missing = { ...base };
delete missing.quand;
const stringEmis = { ...base, emis: String(EMIS) };
const P = keys.primary.publicKey;

/** A verify case in which exemple.fr asks and the primary key is the one trusted. */
const forExemple = (name, envelope, valid) => [name, envelope, { hote: 'exemple.fr' }, [P], valid];

const verifyCases = [
  forExemple('a good envelope', good, true),
  ["the host must be the caller's own", good, { hote: 'autre.fr' }, [P], false],
  ['the host comparison is exact (case)', good, { hote: 'Exemple.fr' }, [P], false],
  ['the host comparison is exact (www)', good, { hote: 'www.exemple.fr' }, [P], false],
  forExemple('a signed field the caller did not ask about is fine', goodProduit, true),
  [
    'produit and nonce expected and matching',
    goodProduit,
    { hote: 'exemple.fr', produit: 'mon-theme', nonce: 'n0nce_n0nce-n0nce-123' },
    [P],
    true,
  ],
  ['produit expected but another one signed', goodProduit, { hote: 'exemple.fr', produit: 'autre-theme' }, [P], false],
  ['produit expected but absent', good, { hote: 'exemple.fr', produit: 'mon-theme' }, [P], false],
  ['nonce expected but another one signed', goodProduit, { hote: 'exemple.fr', nonce: 'AAAAAAAAAAAAAAAA' }, [P], false],
  [
    'nonce expected but absent (a replayed old answer)',
    good,
    { hote: 'exemple.fr', nonce: 'n0nce_n0nce-n0nce-123' },
    [P],
    false,
  ],
  forExemple('tampered: ok flipped', { ...good, donnees: { ...base, ok: false } }, false),
  forExemple(
    'tampered: refusal turned into ok',
    {
      donnees: { ...refusal('revocation'), ok: true, motif: '' },
      signature: signWith('primary', refusal('revocation')),
    },
    false,
  ),
  forExemple(
    'tampered: revalider pushed a year ahead',
    { ...good, donnees: { ...base, revalider: base.revalider + 31536000 } },
    false,
  ),
  forExemple('tampered: a field added after signing', { ...good, donnees: { ...base, extra: 'x' } }, false),
  [
    'tampered: produit added after signing',
    { ...good, donnees: { ...base, produit: 'mon-theme' } },
    { hote: 'exemple.fr', produit: 'mon-theme' },
    [P],
    false,
  ],
  forExemple('signed by an untrusted key', { donnees: base, signature: signWith('untrusted', base) }, false),
  [
    'key rotation: signed by the second trusted key',
    { donnees: base, signature: signWith('rotation', base) },
    { hote: 'exemple.fr' },
    [P, keys.rotation.publicKey],
    true,
  ],
  [
    'key rotation: the old key still verifies while trusted',
    good,
    { hote: 'exemple.fr' },
    [keys.rotation.publicKey, P],
    true,
  ],
  ['key rotation: a key no longer trusted', good, { hote: 'exemple.fr' }, [keys.rotation.publicKey], false],
  forExemple(
    'a later field signed by the service is covered and accepted',
    { donnees: extra, signature: signWith('primary', extra) },
    true,
  ),
  forExemple(
    'signature over the raw pretty-printed bytes, not the canonical form',
    { donnees: base, signature: signBytes('primary', Buffer.from(JSON.stringify(base, null, 1))) },
    false,
  ),
  forExemple(
    'signature over unsorted keys',
    { donnees: base, signature: signBytes('primary', Buffer.from(JSON.stringify({ ok: base.ok, ...base }))) },
    false,
  ),
  forExemple('S + L (a malleated signature) is refused', { donnees: base, signature: sPlusL }, false),
  forExemple(
    'a truncated signature (63 bytes)',
    { donnees: base, signature: sigBytes.subarray(0, 63).toString('base64') },
    false,
  ),
  forExemple(
    'a signature with a byte appended (65 bytes)',
    { donnees: base, signature: Buffer.concat([sigBytes, Buffer.from([0])]).toString('base64') },
    false,
  ),
  forExemple('a signature of zeros', { donnees: base, signature: Buffer.alloc(64).toString('base64') }, false),
  forExemple(
    'URL-safe base64 is not accepted',
    { donnees: base, signature: good.signature.replace(/\+/g, '-').replace(/\//g, '_') },
    false,
  ),
  forExemple('unpadded base64 is not accepted', { donnees: base, signature: good.signature.replace(/=+$/, '') }, false),
  forExemple(
    'base64 with a line break is not accepted',
    { donnees: base, signature: `${good.signature.slice(0, 44)}\n${good.signature.slice(44)}` },
    false,
  ),
  forExemple('a signature that is not base64', { donnees: base, signature: 'not a signature' }, false),
  forExemple('an empty signature', { donnees: base, signature: '' }, false),
  forExemple('no signature', { donnees: base }, false),
  forExemple('a signature that is a number', { donnees: base, signature: 12 }, false),
  forExemple(
    'signed donnees missing a spec field',
    { donnees: missing, signature: signWith('primary', missing) },
    false,
  ),
  forExemple(
    'signed donnees with emis as a string',
    { donnees: stringEmis, signature: signWith('primary', stringEmis) },
    false,
  ),
  forExemple('no donnees', { signature: good.signature }, false),
  forExemple('donnees as a JSON string', { donnees: JSON.stringify(base), signature: good.signature }, false),
  forExemple('an array', [base, good.signature], false),
  forExemple('a string', 'ok', false),
  forExemple('null', null, false),
];

// The two mutated spellings above must really differ from the good one, or their `false` would lie.
if (!/[+/]/.test(good.signature)) throw new Error('pick donnees whose signature has + or / in base64');
if (JSON.stringify({ ok: base.ok, ...base }) === canonical(base)) throw new Error('unsorted case is sorted');

const file = {
  covers:
    'Ed25519 signatures over the canonical form of donnees (docs/protocol.md#signature, docs/protocol.md#product-and-nonce, docs/protocol.md#canonical-form): signing with a fixed TEST ONLY seed must give exactly these signatures (Ed25519 is deterministic, RFC 8032 5.1.6), and envelope verification must accept or refuse each envelope as stated (signature, host, produit, nonce, key rotation, strict base64, strict RFC 8032 S < L).',
  consumers: [
    '@licence/core (TypeScript: noble signer and verifyEnvelope)',
    '@licence/service (TypeScript: node:crypto signer)',
    '@licence/client (TypeScript)',
    'packages/client-php (PHP: sodium and the pure-PHP verifier)',
  ],
  notes: [
    'TEST ONLY: the seeds below are public and printable on purpose. Never use them to sign anything real, never trust their public keys in production.',
    '`sign` cases: sign canonical(donnees) with `keys.primary.seed`; the canonical text and the base64 signature must match exactly, and the envelope must verify with `keys.primary.publicKey` and expect {hote: donnees.hote}.',
    '`verify` cases: verifyEnvelope(envelope, trustedPublicKeys, expect) must return `valid`.',
    'Base64 is the standard alphabet with padding (RFC 4648 section 4); a signature is 64 bytes, a public key 32 bytes.',
  ],
  keys: Object.fromEntries(
    Object.entries(keys).map(([name, k]) => [
      name,
      { warning: 'TEST ONLY', seedText: k.seedText, seed: k.seed, publicKey: k.publicKey },
    ]),
  ),
  cases: [
    ...signCases.map(([name, donnees]) => ({
      name,
      kind: 'sign',
      donnees,
      canonical: canonical(donnees),
      signature: signWith('primary', donnees),
    })),
    ...verifyCases.map(([name, envelope, expect, trustedPublicKeys, valid]) => ({
      name,
      kind: 'verify',
      envelope,
      expect,
      trustedPublicKeys,
      valid,
    })),
  ],
};
writeFileSync(new URL('../cases/signatures.json', import.meta.url), `${JSON.stringify(file, null, 2)}\n`);
console.log(`signatures.json: ${file.cases.length} cases`);
