import { posix } from 'node:path';
import { type ImportSite, isCodeFile } from './import-specifiers.js';
import { describeImport, resolveRelative } from './module-paths.js';

/**
 * @licence/service's source: a folder per wing (verdict, admin, buyer, webhooks...), each reached
 * only through its `index.ts`, its one door; `src/index.ts`, the package's root, only re-exports
 * the doors. Paths here are `/`-separated, from the repository's root.
 */
export const SERVICE_SRC = 'packages/service/src';
const SERVICE = 'packages/service';

/** What may sit at src's root besides tests: the package's root (and a ports.ts, should one return). */
export const SERVICE_ROOT_FILES: readonly string[] = ['index.ts', 'ports.ts'];

const isTest = (path: string): boolean => /\.test\.tsx?$/.test(path);

/** The wing of a path in packages/service/src (`admin` for `src/admin/x.ts`), `''` at src's root, null outside src. */
export function wingOf(path: string): string | null {
  if (!path.startsWith(`${SERVICE_SRC}/`)) return null;
  const segments = path.slice(SERVICE_SRC.length + 1).split('/');
  return segments.length > 1 ? (segments[0] ?? '') : '';
}

/**
 * The wing whose inner file a resolved path (extension dropped) is: anything in `src/<wing>/`
 * but `src/<wing>/index`. Null for a door, for src's root (`src/index`, or `src/<wing>`, a folder
 * import, which is its index) and for anything outside src.
 */
export function innerFileWing(target: string): string | null {
  const wing = wingOf(target);
  if (wing === null || wing === '') return null;
  return target === `${SERVICE_SRC}/${wing}/index` ? null : wing;
}

/**
 * Rule a, over every file under packages/service/src: a source file at src's root other than
 * index.ts (tests aside) belongs in a wing; a wing (a folder holding code) needs its index.ts.
 */
export function misplacedServiceFiles(paths: readonly string[]): string[] {
  const offences: string[] = [];
  const wings = new Set<string>();
  const doors = new Set<string>();
  for (const path of paths.filter(isCodeFile)) {
    const wing = wingOf(path);
    if (wing === null) continue;
    const name = posix.basename(path);
    if (wing === '' && !isTest(path) && !SERVICE_ROOT_FILES.includes(name)) {
      offences.push(`${path}: a source file at src's root, outside any wing; move it into its wing's folder`);
    }
    if (wing !== '') wings.add(wing);
    if (wing !== '' && path === `${SERVICE_SRC}/${wing}/index.ts`) doors.add(wing);
  }
  for (const wing of [...wings].sort()) {
    if (!doors.has(wing)) offences.push(`${SERVICE_SRC}/${wing}/: no index.ts, the wing's one door`);
  }
  return offences;
}

/** The specifier `file` would write for a wing's door: `../admin/index.js`. */
function doorSpecifier(file: string, wing: string): string {
  const path = posix.relative(posix.dirname(file), `${SERVICE_SRC}/${wing}/index.js`);
  return path.startsWith('.') ? path : `./${path}`;
}

/** Why `file` may not import `specifier` under rule b, or null if it may. */
function serviceBoundaryFault(file: string, specifier: string): string | null {
  if (/^@licence\/service\/./.test(specifier)) {
    return "a deep path into @licence/service, whose one entry is its root; import '@licence/service'";
  }
  const target = resolveRelative(file, specifier);
  if (target === null) return null;
  const ownWing = wingOf(file);
  const innerWing = innerFileWing(target);
  // Inside src: a wing's files reach each other freely, another wing only through its door.
  // Elsewhere in the package (test/, configs): doors and the root only.
  if (file.startsWith(`${SERVICE}/`)) {
    return innerWing !== null && innerWing !== ownWing
      ? `an inner file of the ${innerWing} wing; import its door, '${doorSpecifier(file, innerWing)}'`
      : null;
  }
  const intoSource = target === SERVICE_SRC || target.startsWith(`${SERVICE_SRC}/`);
  return intoSource ? "@licence/service's source by path, from outside the package; import '@licence/service'" : null;
}

/**
 * Rule b, for one file anywhere in the repository and the imports it names: inside
 * packages/service/src, a relative import into another wing goes to that wing's `index.ts` (the
 * root `src/index.ts` and tests alike); the package's other files (test/ and the rest) import
 * doors or the root; nothing outside the package reaches its source by a relative path; nothing
 * anywhere imports a deep path of `@licence/service`.
 */
export function serviceImportOffences(file: string, imports: readonly ImportSite[]): string[] {
  return imports.flatMap(({ specifier, line }) => {
    const fault = serviceBoundaryFault(file, specifier);
    return fault === null ? [] : [describeImport(file, line, specifier, fault)];
  });
}
