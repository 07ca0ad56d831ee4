import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type ImportSite, importSpecifiers, isCodeFile } from '../src/import-specifiers.js';
import { misplacedServiceFiles, SERVICE_SRC, serviceImportOffences } from '../src/service-wings.js';
import { isShippedSource, shippingDirs, testHelperPackages, testImportOffences } from '../src/test-imports.js';
import { filesUnder, WORKSPACE_GROUPS, workspacePackages } from '../src/workspace-files.js';

/**
 * The repository's import boundaries, which no linter checks: @licence/service's wings reached
 * only through their doors (a folder per wing, its index.ts the one way in), and no test code in
 * what ships.
 */

const root = fileURLToPath(new URL('../../..', import.meta.url));
const packages = workspacePackages(root);
const files = WORKSPACE_GROUPS.flatMap((group) => filesUnder(root, group)).filter(isCodeFile);
const imports = new Map<string, ImportSite[]>(
  files.map((file) => [file, importSpecifiers(file, readFileSync(join(root, file), 'utf8'))]),
);
const importsOf = (file: string): ImportSite[] => imports.get(file) ?? [];

describe('packages/service/src: a folder per wing, each reached through its index.ts', () => {
  const serviceFiles = files.filter((file) => file.startsWith(`${SERVICE_SRC}/`));

  it('reads the service, its test/ and the rest of the workspace', () => {
    expect(serviceFiles).toContain(`${SERVICE_SRC}/index.ts`);
    expect(
      serviceFiles.filter((file) => /^packages\/service\/src\/[^/]+\/index\.ts$/.test(file)).length,
    ).toBeGreaterThan(1);
    expect(files).toContain('packages/service/test/harness.ts');
    expect(files).toContain('apps/koa-server/src/index.ts');
    expect(files).toContain('tooling/store-contract/src/index.ts');
    expect(files.some((file) => file.includes('/node_modules/') || file.includes('/dist/'))).toBe(false);
  });

  it("holds no source file at src's root but index.ts, and a door in every wing", () => {
    expect(misplacedServiceFiles(filesUnder(root, SERVICE_SRC))).toEqual([]);
  });

  it("has no import of another wing's inner file, of the service's source from outside, or of a deep @licence/service path", () => {
    expect(files.flatMap((file) => serviceImportOffences(file, importsOf(file)))).toEqual([]);
  });
});

describe('what ships holds no test code', () => {
  const shipping = shippingDirs(packages);
  const shipped = files.filter((file) => isShippedSource(file, shipping));

  it('knows what ships from the package.json files: the public packages and the apps, never tooling', () => {
    expect(shipping).toContain('packages/core');
    expect(shipping).toContain('packages/store-memory');
    expect(shipping).toContain('apps/koa-server');
    expect(shipping).toContain('apps/lambda');
    expect(shipping.filter((dir) => dir.startsWith('tooling/'))).toEqual([]);
    expect(shipped.filter((file) => /\.test\.tsx?$/.test(file))).toEqual([]);
  });

  it('imports no vitest, test helper or test file from the src/ of a shipped package or app (its *.test.ts aside)', () => {
    const helpers = testHelperPackages(packages);
    expect(helpers).toContain('@licence/store-contract');
    expect(shipped.flatMap((file) => testImportOffences(file, importsOf(file), helpers))).toEqual([]);
  });
});
