import { describe, expect, it } from 'vitest';
import { importSpecifiers } from './import-specifiers.js';
import {
  isShippedSource,
  isTestPath,
  shippingDirs,
  testHelperPackages,
  testImportOffences,
  type WorkspacePackage,
} from './test-imports.js';

const workspace: WorkspacePackage[] = [
  { dir: 'packages/core', name: '@licence/core', private: false },
  { dir: 'packages/console', name: '@licence/console', private: true },
  { dir: 'apps/lambda', name: '@licence/lambda', private: true },
  { dir: 'apps/public-app', name: '@licence/public-app', private: false },
  { dir: 'tooling/store-contract', name: '@licence/store-contract', private: true },
  { dir: 'tooling/published-tool', name: '@licence/published-tool', private: false },
];

describe('shippingDirs', () => {
  it('is every public package and every app, never tooling', () => {
    expect(shippingDirs(workspace)).toEqual(['apps/lambda', 'apps/public-app', 'packages/core']);
  });
});

describe('testHelperPackages', () => {
  it('is the test tools and the private tooling packages', () => {
    const helpers = testHelperPackages(workspace);
    expect(helpers.has('vitest')).toBe(true);
    expect(helpers.has('fast-check')).toBe(true);
    expect(helpers.has('@licence/store-contract')).toBe(true);
    expect(helpers.has('@licence/published-tool')).toBe(false);
    expect(helpers.has('@licence/console')).toBe(false);
    expect(helpers.has('@licence/core')).toBe(false);
  });
});

describe('isShippedSource', () => {
  const shipping = ['apps/lambda', 'packages/core'];
  it.each([
    ['packages/core/src/parse-host.ts', true],
    ['packages/core/src/deep/inner.tsx', true],
    ['apps/lambda/src/handler.ts', true],
    ['packages/core/src/parse-host.test.ts', false],
    ['apps/lambda/src/page.test.tsx', false],
    ['packages/core/test/helper.ts', false],
    ['packages/core/vitest.config.ts', false],
    ['packages/core/src/data.json', false],
    ['packages/console/src/app.tsx', false],
    ['packages/core-extra/src/a.ts', false],
    ['tooling/store-contract/src/store-contract.ts', false],
  ])('%s: %s', (path, shipped) => {
    expect(isShippedSource(path, shipping)).toBe(shipped);
  });
});

describe('isTestPath', () => {
  it.each([
    ['packages/service/test/webhook-deliver-kit', true],
    ['packages/core/src/parse-host.test', true],
    ['packages/core/src/parse-host.spec', true],
    ['apps/koa-server/tests/x', true],
    ['packages/core/src/__tests__/x', true],
    ['packages/core/src/parse-host', false],
    ['packages/core/src/test-vectors', false],
    ['packages/core/src/latest/x', false],
  ])('%s: %s', (target, test) => {
    expect(isTestPath(target)).toBe(test);
  });
});

describe('testImportOffences (rule c)', () => {
  const helpers = testHelperPackages(workspace);
  const offences = (file: string, ...lines: string[]) =>
    testImportOffences(file, importSpecifiers(file, lines.join('\n')), helpers);

  it('passes runtime imports', () => {
    expect(
      offences(
        'packages/core/src/a.ts',
        "import { b } from './b.js';",
        "import { readFile } from 'node:fs/promises';",
        "import { parse } from 'tldts';",
        "import type { Store } from '@licence/service';",
      ),
    ).toEqual([]);
  });

  it('names the test runner, a test tool, a private tooling package and test code, type-only imports too', () => {
    expect(
      offences(
        'packages/core/src/a.ts',
        "import { expect } from 'vitest';",
        "import type { UserConfig } from 'vitest/config';",
        "import { fn } from '@vitest/spy';",
        "import fc from 'fast-check';",
        "import { storeContract } from '@licence/store-contract';",
        "import { kit } from '../test/kit.js';",
        "import { fixture } from './b.test.js';",
      ),
    ).toEqual([
      "packages/core/src/a.ts:1 imports 'vitest': vitest is for tests only, and this file ships",
      "packages/core/src/a.ts:2 imports 'vitest/config': vitest is for tests only, and this file ships",
      "packages/core/src/a.ts:3 imports '@vitest/spy': @vitest/spy is for tests only, and this file ships",
      "packages/core/src/a.ts:4 imports 'fast-check': fast-check is for tests only, and this file ships",
      "packages/core/src/a.ts:5 imports '@licence/store-contract': @licence/store-contract is for tests only, and this file ships",
      "packages/core/src/a.ts:6 imports '../test/kit.js': packages/core/test/kit is test code, and this file ships",
      "packages/core/src/a.ts:7 imports './b.test.js': packages/core/src/b.test is test code, and this file ships",
    ]);
  });
});
