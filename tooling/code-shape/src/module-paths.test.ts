import { describe, expect, it } from 'vitest';
import { describeImport, packageName, resolveRelative } from './module-paths.js';

describe('resolveRelative', () => {
  it.each([
    ['packages/service/src/admin/a.ts', './b.js', 'packages/service/src/admin/b'],
    ['packages/service/src/admin/a.ts', '../verdict/index.js', 'packages/service/src/verdict/index'],
    ['packages/service/src/admin/a.ts', '../verdict/verdict.ts', 'packages/service/src/verdict/verdict'],
    ['packages/service/src/admin/a.ts', '../verdict', 'packages/service/src/verdict'],
    ['packages/service/src/admin/a.ts', '.', 'packages/service/src/admin'],
    ['packages/service/src/admin/a.ts', './', 'packages/service/src/admin'],
    ['packages/service/test/harness.ts', '../src/index.js', 'packages/service/src/index'],
    ['apps/koa-server/src/a.ts', '../../../packages/service/src/http/problem.js', 'packages/service/src/http/problem'],
    ['packages/console/src/app.tsx', './view.jsx', 'packages/console/src/view'],
  ])('from %s, %s is %s', (file, specifier, target) => {
    expect(resolveRelative(file, specifier)).toBe(target);
  });

  it('is null for a bare specifier', () => {
    expect(resolveRelative('a/b.ts', 'vitest')).toBeNull();
    expect(resolveRelative('a/b.ts', '@licence/service')).toBeNull();
    expect(resolveRelative('a/b.ts', 'node:fs')).toBeNull();
    expect(resolveRelative('a/b.ts', '.hidden')).toBeNull();
  });
});

describe('packageName', () => {
  it.each([
    ['vitest', 'vitest'],
    ['vitest/config', 'vitest'],
    ['@vitest/expect', '@vitest/expect'],
    ['@licence/service/testing', '@licence/service'],
    ['@licence/service', '@licence/service'],
    ['./vitest.js', null],
    ['../test/harness.js', null],
    ['node:test', null],
    ['/abs/path.js', null],
  ])('%s: %s', (specifier, name) => {
    expect(packageName(specifier)).toBe(name);
  });
});

describe('describeImport', () => {
  it('says where, what, and why', () => {
    expect(describeImport('a/b.ts', 3, 'vitest', 'for tests only')).toBe("a/b.ts:3 imports 'vitest': for tests only");
  });
});
