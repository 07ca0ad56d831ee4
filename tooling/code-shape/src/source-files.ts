import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The folders whose sources the shape rules cover: every package's and app's `src/`. */
const GROUPS = ['packages', 'apps'];

/**
 * Whether a file under a `src/` is source the rules cover. Tests are not (`*.test.ts`); the Store
 * contract suite, a test suite whose `describe` blocks are as long as the contract, is a tooling
 * package (tooling/store-contract), outside the rule's folders. Declaration files hold no functions.
 */
export function isCoveredSource(path: string): boolean {
  // .tsx too: the console's components (packages/console) are source like any other.
  return /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path) && !path.endsWith('.d.ts');
}

/** The covered `.ts` and `.tsx` files of packages/*\/src and apps/*\/src under `root`, as `/`-separated paths from it, sorted. */
export function sourceFiles(root: string): string[] {
  const files: string[] = [];
  for (const group of GROUPS) {
    if (!existsSync(join(root, group))) continue;
    for (const name of readdirSync(join(root, group)).sort()) {
      const src = join(root, group, name, 'src');
      if (!existsSync(src)) continue;
      for (const entry of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
        const path = `${group}/${name}/src/${entry.split('\\').join('/')}`;
        if (isCoveredSource(path)) files.push(path);
      }
    }
  }
  return files.sort();
}
