import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isCoveredSource, sourceFiles } from './source-files.js';

describe('isCoveredSource', () => {
  it.each([
    ['packages/core/src/parse-host.ts', true],
    ['apps/koa-server/src/deep/inner.ts', true],
    ['packages/console/src/components/app.tsx', true],
    ['packages/core/src/parse-host.test.ts', false],
    ['packages/console/src/components/app.test.tsx', false],
    ['packages/service/src/admin/key-admin.ts', true],
    ['packages/vectors/src/types.d.ts', false],
    ['packages/vectors/src/data.json', false],
    ['packages/vectors/src/script.mjs', false],
  ])('%s: %s', (path, covered) => {
    expect(isCoveredSource(path)).toBe(covered);
  });
});

describe('sourceFiles', () => {
  const root = mkdtempSync(join(tmpdir(), 'code-shape-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('lists the covered files of packages/*/src and apps/*/src, nested folders included, sorted', () => {
    for (const file of [
      'packages/b/src/index.ts',
      'packages/b/src/index.test.ts',
      'packages/a/src/inner/deep.ts',
      'packages/a/test/helper.ts',
      'packages/a/bench/x.ts',
      'packages/no-src/README.md',
      'apps/server/src/app.ts',
      'tooling/runner/src/runner.ts',
    ]) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), '');
    }
    expect(sourceFiles(root)).toEqual([
      'apps/server/src/app.ts',
      'packages/a/src/inner/deep.ts',
      'packages/b/src/index.ts',
    ]);
  });
});
