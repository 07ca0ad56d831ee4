import { posix } from 'node:path';

/**
 * Where a relative specifier leads from `file` (both `/`-separated, from the repository's root),
 * its extension dropped so that `./x.js` (what the sources write, for ESM) and `./x.ts` (the file)
 * meet: `resolveRelative('packages/a/src/b/c.ts', '../d/e.js')` is `packages/a/src/d/e`. Null for a
 * bare specifier (`vitest`, `node:fs`, `@licence/core`), which names a package, not a path.
 */
export function resolveRelative(file: string, specifier: string): string | null {
  if (!/^\.\.?(\/|$)/.test(specifier)) return null;
  const joined = posix.join(posix.dirname(file), specifier).replace(/\/$/, '');
  return joined.replace(/\.(c|m)?(t|j)sx?$/, '');
}

/** The package a bare specifier names (`@scope/name`, `name`), or null for a relative path or a `node:` built-in. */
export function packageName(specifier: string): string | null {
  if (/^\.\.?(\/|$)/.test(specifier) || specifier.startsWith('node:') || specifier.startsWith('/')) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? null);
}

/** `file:line imports 'specifier'`, then why it may not: one line per offence, for the failure's list. */
export function describeImport(file: string, line: number, specifier: string, why: string): string {
  return `${file}:${line} imports '${specifier}': ${why}`;
}
