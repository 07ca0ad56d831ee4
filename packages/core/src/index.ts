// @licence/core: every rule of the licence protocol, pure. This file only re-exports.

// Errors (one family)
export { isRecord, isValidationError, typeName, ValidationError } from './validation-error.js';
// What a catch does with what it caught (every package's one helper each)
export { asError, describeError, errorCode, errorMessage } from './caught-error.js';

// Keys (docs/protocol.md#key-normalisation)
export { keyHint, MAX_RAW_KEY_LENGTH, normalizeKey } from './normalize-key.js';
export { CROCKFORD_ALPHABET, formatKey, generateKey, KEY_LENGTH } from './generate-key.js';
export type { RandomBytes } from './generate-key.js';

// Hosts (docs/protocol.md#host-normalisation, #test-hosts)
export { MAX_HOST_LENGTH, MAX_LABEL_LENGTH, MAX_URL_LENGTH, normalizeHost } from './normalize-host.js';
export { parseHost } from './parse-host.js';
export type { HostInfo } from './parse-host.js';
export { registrableDomain } from './registrable-domain.js';
export { isTestHost, isTestIpAddress, TEST_PREFIXES, TEST_SUFFIXES } from './test-host.js';
// Staging patterns (docs/protocol.md#staging-hosts)
export { BUILTIN_STAGING_HOSTS, BUILTIN_STAGING_PATTERNS } from './staging-builtin.js';
export type { BuiltinStagingPattern } from './staging-builtin.js';
export { isStagingHost, matchesStagingPattern } from './staging-match.js';
export {
  MAX_STAGING_PATTERNS,
  parseStagingList,
  parseStagingPattern,
  parseStagingPatterns,
} from './staging-pattern.js';
export { formatIpv4, ipv4InCidr, ipv6InCidr, mappedIpv4, parseIpHost, parseIpv4, parseIpv6 } from './ip-address.js';
export type { IpAddress, Ipv4Address, Ipv6Address } from './ip-address.js';

// Request fields of our extension (docs/protocol.md#product-and-nonce)
export { validateNonce, validateProduit } from './request-fields.js';
export type { Nonce, Produit } from './request-fields.js';

// Verdicts (docs/protocol.md#verdict)
export { MOTIFS } from './donnees.js';
export type { Donnees, Motif, SignedEnvelope } from './donnees.js';
export { KEY_KINDS, KEY_STATUSES, parseKeyRecord } from './key-record.js';
export type { KeyKind, KeyRecord, KeyStatus } from './key-record.js';
export { keyState } from './key-state.js';
export type { KeyState } from './key-state.js';
export { checkVerdictSettings, decideVerdict, DEFAULT_VERDICT_SETTINGS } from './decide-verdict.js';
export type { VerdictDecision, VerdictRequest, VerdictSettings } from './decide-verdict.js';
export { formatQuand, MAX_QUAND_SECONDS } from './format-quand.js';

// Canonical form and signatures (docs/protocol.md#canonical-form, #signature, RFC 8032)
export { canonicalBytes, canonicalJson, compareCodePoints } from './canonical-json.js';
export { decodeBase64, encodeBase64, tryDecodeBase64 } from './base64.js';
export { createNobleSigner, publicKeyOf, signDonnees, toPublicKey, verifySignature } from './ed25519.js';
export type { SignatureVerifier, Signer } from './ed25519.js';
export { checkExpectation, checkTrustedPublicKeys, checkVerifier, verifyEnvelope } from './verify-envelope.js';
export type { EnvelopeExpectation, VerifyEnvelopeOptions } from './verify-envelope.js';

// Clients (docs/protocol.md#states)
export { clientStep, readCacheRecord } from './client-state.js';
export { keyProblem } from './client-key.js';
export type { KeyProblem } from './client-key.js';
export type { CacheRecord, CallOutcome, ClientState, ClientStep, ClientStepInput } from './client-state.js';
export {
  BACKOFF_BASE_SECONDS,
  BACKOFF_MAX_SECONDS,
  backoffSeconds,
  failedCallDelay,
  RETRY_AFTER_MIN_SECONDS,
  retryAfterSeconds,
} from './backoff.js';
export type { FailedCall } from './backoff.js';
