export { loadVectors, vectorPath } from './vector-file.js';
export type { VectorFile, VectorName } from './vector-file.js';
export { externalVectorsDir, readExternal, readExternalJson } from './external.js';
