import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Third-party test data (Wycheproof, RFC 8032, the Public Suffix List tests, WHATWG URL tests, AWS
 * Lambda events) lives in this package's `external/` folder, copied byte for byte from upstream and
 * listed with its commit, git blob id and licence in `external/sources.json` (see
 * packages/vectors/external/README.md). It ships with the package, licences included, because this
 * reader is public. A missing folder is an error, not a skip: these cases must run in CI.
 */
export function externalVectorsDir(): string {
  // `external/` sits beside `src/` and `dist/`, so one `..` works from both (as `cases/` does).
  const dir = fileURLToPath(new URL('../external/', import.meta.url));
  if (!existsSync(join(dir, 'sources.json'))) {
    throw new Error(`external test vectors not found: expected ${dir} with its sources.json`);
  }
  return dir;
}

/** The text of one external file, by its path under `external/` (as in `external/sources.json`). */
export function readExternal(relativePath: string): string {
  return readFileSync(join(externalVectorsDir(), relativePath), 'utf8');
}

/** One external JSON file, parsed. The caller states the shape it expects. */
export function readExternalJson<T>(relativePath: string): T {
  return JSON.parse(readExternal(relativePath)) as T;
}
