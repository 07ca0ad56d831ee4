import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Third-party test data (Wycheproof, RFC 8032, the Public Suffix List tests, WHATWG URL tests, AWS
 * Lambda events) lives outside the repo, in `shared/vectors/external/` beside the clone, and is
 * read from there, never copied (see its SOURCES.md). `LICENCE_EXTERNAL_VECTORS` may point
 * elsewhere. A missing folder is an error, not a skip: these cases must run in CI.
 */
export function externalVectorsDir(): string {
  const fromEnv = process.env.LICENCE_EXTERNAL_VECTORS;
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!existsSync(fromEnv)) {
      throw new Error(`LICENCE_EXTERNAL_VECTORS points to ${fromEnv}, which does not exist`);
    }
    return resolve(fromEnv);
  }
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'shared', 'vectors', 'external');
    if (existsSync(join(candidate, 'SOURCES.md'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error(
    'external test vectors not found: expected shared/vectors/external/ beside the repository ' +
      '(or set LICENCE_EXTERNAL_VECTORS)',
  );
}

/** The text of one external file, by its path under `shared/vectors/external/`. */
export function readExternal(relativePath: string): string {
  return readFileSync(join(externalVectorsDir(), relativePath), 'utf8');
}

/** One external JSON file, parsed. The caller states the shape it expects. */
export function readExternalJson<T>(relativePath: string): T {
  return JSON.parse(readExternal(relativePath)) as T;
}
