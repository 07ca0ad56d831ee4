export { loadVectors, vectorPath } from './vector-file.js';
export type { VectorFile, VectorName } from './vector-file.js';
export { externalVectorsDir, readExternal, readExternalJson } from './external.js';
export { keyCaseExpected, keyCaseInput, loadKeyVectors } from './keys.js';
export type { KeyCase, Repeat } from './keys.js';
export { loadCanonicalVectors } from './canonical.js';
export type { CanonicalCase } from './canonical.js';
export { loadSignatureVectors } from './signatures.js';
export type { SignatureCase, SignatureKey, SignatureVectors } from './signatures.js';
export { loadVerdictVectors } from './verdicts.js';
export type {
  VerdictCase,
  VerdictCaseSettings,
  VerdictDonnees,
  VerdictHostInfo,
  VerdictKeyRecord,
} from './verdicts.js';
export { loadClientStateVectors } from './client-states.js';
export type {
  ClientStateCase,
  ClientStateDonnees,
  ClientStateEnvelope,
  ClientStateOutcome,
  ClientStateRecord,
  ClientStateResult,
  ClientStateVectors,
} from './client-states.js';
export { loadMessageVectors } from './messages.js';
export type { MessageCase } from './messages.js';
export { loadHostVectors } from './hosts.js';
export type { HostAcceptedCase, HostCase, HostRejectedCase } from './hosts.js';
export { loadStagingVectors } from './staging.js';
export type {
  StagingCase,
  StagingMatchCase,
  StagingPatternAcceptedCase,
  StagingPatternCase,
  StagingPatternRejectedCase,
} from './staging.js';
export { loadHttpVectors } from './http.js';
export type { HttpCase, HttpVectorExpect, HttpVectorRequest, HttpVectorStep, HttpVectors } from './http.js';
