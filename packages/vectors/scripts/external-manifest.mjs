// The manifest of the third-party test data in external/ (external/sources.json) and the one check
// that proves a file is upstream's bytes: its git blob id. Shared by scripts/refresh-external.mjs
// and src/external-sources.test.ts, so the script and the test cannot disagree.
// Plain Node ESM, no dependencies. See external/README.md.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the package's `external/` folder (this file sits in `scripts/`, beside it). */
export const EXTERNAL_DIR = fileURLToPath(new URL('../external/', import.meta.url));

/**
 * What lives in external/ without being upstream data: this documentation, the manifest, the
 * licence texts, and the attributes file that keeps git from rewriting the data's line endings.
 */
export const NOT_DATA = Object.freeze(['README.md', 'sources.json', 'licenses', '.gitattributes']);

/**
 * The git blob id of some bytes: the SHA-1 of `blob <length>\0<content>`, the object id git
 * gives the file (`git hash-object FILE`, `git rev-parse COMMIT:PATH`). Equal ids mean equal bytes.
 * @param {Uint8Array} bytes
 * @returns {string} 40 lower-case hex digits
 */
export function gitBlobId(bytes) {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** The raw download address of a file at a commit. */
export function rawUrl(repository, commit, path) {
  return `https://raw.githubusercontent.com/${repository}/${commit}/${path}`;
}

const HEX40 = /^[0-9a-f]{40}$/;
const REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
const RELATIVE = /^(?!\/)(?!.*(?:^|\/)\.\.?(?:\/|$))[A-Za-z0-9_./-]+$/;

/**
 * Reads and checks external/sources.json: every entry names its local file, upstream repository,
 * path and commit, blob id, licence and raw URL, and the URL is the one those fields give.
 * Throws with the entry and field at fault.
 * @param {string} [dir] the external/ folder
 * @returns {{ file: string, repository: string, path: string, commit: string, blob: string, license: string, url: string }[]}
 */
export function readManifest(dir = EXTERNAL_DIR) {
  /** @type {unknown} */
  const parsed = JSON.parse(readFileSync(join(dir, 'sources.json'), 'utf8'));
  const files =
    typeof parsed === 'object' && parsed !== null ? /** @type {{ files?: unknown }} */ (parsed).files : undefined;
  if (!Array.isArray(files) || files.length === 0) throw new Error('sources.json: expected a non-empty "files" array');
  const seen = new Set();
  return files.map((entry, index) => {
    const where = `sources.json files[${index}]`;
    if (typeof entry !== 'object' || entry === null) throw new Error(`${where}: expected an object`);
    const text = (name, pattern) => {
      const value = entry[name];
      if (typeof value !== 'string' || !pattern.test(value))
        throw new Error(`${where}.${name}: expected ${pattern.source}, got ${JSON.stringify(value)}`);
      return value;
    };
    const item = {
      file: text('file', RELATIVE),
      repository: text('repository', REPOSITORY),
      path: text('path', RELATIVE),
      commit: text('commit', HEX40),
      blob: text('blob', HEX40),
      license: text('license', /^[A-Za-z0-9.+-]+$/),
      url: text('url', /^https:\/\/raw\.githubusercontent\.com\//),
    };
    const expected = rawUrl(item.repository, item.commit, item.path);
    if (item.url !== expected) throw new Error(`${where}.url: expected ${expected}, got ${item.url}`);
    if (seen.has(item.file)) throw new Error(`${where}.file: ${item.file} is listed twice`);
    seen.add(item.file);
    return item;
  });
}

/**
 * Every data file under external/ (paths relative to it, with `/`), that is every file but those
 * of NOT_DATA at its top.
 * @param {string} [dir]
 * @returns {string[]}
 */
export function listDataFiles(dir = EXTERNAL_DIR) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((file) => !NOT_DATA.includes(file.split('/')[0] ?? ''))
    .sort();
}

/**
 * The local files' problems against the manifest, no network: a listed file that is missing or
 * whose blob id differs, and a data file the manifest does not list. Empty when all is well.
 * @param {string} [dir]
 * @returns {string[]} one line per problem, naming the file
 */
export function checkLocalFiles(dir = EXTERNAL_DIR) {
  const entries = readManifest(dir);
  const problems = [];
  for (const entry of entries) {
    let bytes;
    try {
      bytes = readFileSync(join(dir, entry.file));
    } catch (error) {
      problems.push(`${entry.file}: cannot read (${error instanceof Error ? error.message : String(error)})`);
      continue;
    }
    const blob = gitBlobId(bytes);
    if (blob !== entry.blob)
      problems.push(
        `${entry.file}: git blob ${blob}, manifest says ${entry.blob} (${entry.repository} ${entry.path} @ ${entry.commit})`,
      );
  }
  const listed = new Set(entries.map((entry) => entry.file));
  for (const file of listDataFiles(dir)) {
    if (!listed.has(file)) problems.push(`${file}: not listed in sources.json`);
  }
  return problems;
}
