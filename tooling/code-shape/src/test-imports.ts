import { type ImportSite, isCodeFile } from './import-specifiers.js';
import { describeImport, packageName, resolveRelative } from './module-paths.js';

/** A workspace package, as its package.json says. */
export interface WorkspacePackage {
  /** From the repository's root: `packages/core`, `apps/lambda`, `tooling/pg-cluster`. */
  readonly dir: string;
  readonly name: string;
  readonly private: boolean;
}

/**
 * The npm packages only tests use: the runner, property testing, the browser tests' driver and
 * their accessibility check, and the independent webhook checker (CONTRIBUTING.md, "Testing").
 * Anything under `@vitest/` counts too.
 */
export const TEST_PACKAGES: readonly string[] = [
  'vitest',
  'fast-check',
  'playwright-core',
  '@axe-core/playwright',
  'standardwebhooks',
];

/**
 * The folders whose `src/` ships: every packages/* and apps/* package without `"private": true`
 * (published to npm), and every app (deployed, though private). Tooling never ships.
 */
export function shippingDirs(packages: readonly WorkspacePackage[]): string[] {
  const ships = ({ dir, private: isPrivate }: WorkspacePackage) =>
    dir.startsWith('apps/') || (dir.startsWith('packages/') && !isPrivate);
  return packages
    .filter(ships)
    .map(({ dir }) => dir)
    .sort();
}

/**
 * The package names that are test helpers: TEST_PACKAGES and the private tooling packages (the
 * Store contract suite, the PostgreSQL cluster, the http.json runner...), which exist for tests
 * and are never published.
 */
export function testHelperPackages(packages: readonly WorkspacePackage[]): Set<string> {
  const tooling = packages.filter((entry) => entry.dir.startsWith('tooling/') && entry.private);
  return new Set([...TEST_PACKAGES, ...tooling.map(({ name }) => name)]);
}

/** Whether `path` is shipped source: code under a shipping folder's `src/`, its `*.test.ts(x)` files aside. */
export function isShippedSource(path: string, shipping: readonly string[]): boolean {
  const inShippedSrc = shipping.some((dir) => path.startsWith(`${dir}/src/`));
  return inShippedSrc && isCodeFile(path) && !/\.test\.tsx?$/.test(path);
}

/** Whether a resolved path (extension dropped) is a test's: a `*.test` or `*.spec` file, or anything in a test/, tests/ or __tests__/ folder. */
export function isTestPath(target: string): boolean {
  return /(^|\/)(test|tests|__tests__)\//.test(target) || /\.(test|spec)$/.test(target);
}

/** Why shipped source may not import `specifier`, or null if it may. */
function testImportFault(file: string, specifier: string, helpers: ReadonlySet<string>): string | null {
  const name = packageName(specifier);
  if (name !== null && (helpers.has(name) || name.startsWith('@vitest/'))) {
    return `${name} is for tests only, and this file ships`;
  }
  const target = resolveRelative(file, specifier);
  return target !== null && isTestPath(target) ? `${target} is test code, and this file ships` : null;
}

/**
 * Rule c, for one shipped source file and the imports it names: no test runner, no test helper
 * package, no test file or test/ folder. A build would carry them into the package, or fail on a
 * dependency its users do not install.
 */
export function testImportOffences(
  file: string,
  imports: readonly ImportSite[],
  helpers: ReadonlySet<string>,
): string[] {
  return imports.flatMap(({ specifier, line }) => {
    const fault = testImportFault(file, specifier, helpers);
    return fault === null ? [] : [describeImport(file, line, specifier, fault)];
  });
}
