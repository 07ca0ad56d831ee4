export { loadVectors, vectorPath } from './vector-file.js';
export type { VectorFile, VectorName } from './vector-file.js';
export { externalVectorsDir, readExternal, readExternalJson } from './external.js';
export { keyCaseExpected, keyCaseInput, loadKeyVectors } from './keys.js';
export type { KeyCase, Repeat } from './keys.js';
export { loadCanonicalVectors } from './canonical.js';
export type { CanonicalCase } from './canonical.js';
export { loadSignatureVectors } from './signatures.js';
export type { SignatureCase, SignatureKey, SignatureVectors } from './signatures.js';
