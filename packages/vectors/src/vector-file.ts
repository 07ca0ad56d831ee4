import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Every vector file has the same frame: what it covers, who must run it, and its cases.
 * The files are plain JSON (in `cases/`) so that the PHP client's tests read the very same bytes.
 */
export interface VectorFile<Case> {
  /** What the file covers, in a sentence or two. */
  readonly covers: string;
  /** The implementations that must pass every case. */
  readonly consumers: readonly string[];
  /** Notes on reading the cases (units, conventions). */
  readonly notes?: readonly string[];
  readonly cases: readonly Case[];
}

/** The names of the vector files in `cases/` (without `.json`). */
export type VectorName =
  | 'keys'
  | 'hosts'
  | 'canonical'
  | 'signatures'
  | 'verdicts'
  | 'client-states'
  | 'messages'
  | 'http'
  | 'staging';

/** Absolute path of a vector file, for implementations that read the JSON themselves. */
export function vectorPath(name: VectorName): string {
  // `cases/` sits beside `src/` and `dist/`, so one `..` works from both.
  return fileURLToPath(new URL(`../cases/${name}.json`, import.meta.url));
}

/**
 * Reads and parses one vector file. Read at call time (not bundled) so that editing a JSON file
 * needs no rebuild; the files are checked by this package's own tests.
 */
export function loadVectors<Case>(name: VectorName): VectorFile<Case> {
  const parsed: unknown = JSON.parse(readFileSync(vectorPath(name), 'utf8'));
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    !Array.isArray((parsed as { cases?: unknown }).cases) ||
    typeof (parsed as { covers?: unknown }).covers !== 'string'
  ) {
    throw new Error(`vector file ${name}.json: expected {covers, consumers, cases[]}`);
  }
  return parsed as VectorFile<Case>;
}
