import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { filesUnder, workspacePackages } from './workspace-files.js';

describe('filesUnder and workspacePackages', () => {
  const root = mkdtempSync(join(tmpdir(), 'code-shape-workspace-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const write = (file: string, text = ''): void => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  };

  it('lists every file under a folder, sorted, none from installs, builds, reports or hidden folders', () => {
    for (const file of [
      'packages/a/src/index.ts',
      'packages/a/src/deep/inner.ts',
      'packages/a/test/kit.ts',
      'packages/a/README.md',
      'packages/a/node_modules/dep/index.js',
      'packages/a/dist/index.js',
      'packages/a/coverage/index.html',
      'packages/a/.turbo/turbo-test.log',
    ]) {
      write(file);
    }
    expect(filesUnder(root, 'packages')).toEqual([
      'packages/a/README.md',
      'packages/a/src/deep/inner.ts',
      'packages/a/src/index.ts',
      'packages/a/test/kit.ts',
    ]);
    expect(filesUnder(root, 'nothing-here')).toEqual([]);
  });

  it("reads each package's name and privacy from its package.json", () => {
    write('packages/a/package.json', JSON.stringify({ name: '@x/a' }));
    write('apps/server/package.json', JSON.stringify({ name: '@x/server', private: true }));
    write('tooling/kit/package.json', JSON.stringify({ name: '@x/kit', private: true }));
    write('tooling/no-manifest/README.md');
    expect(workspacePackages(root)).toEqual([
      { dir: 'apps/server', name: '@x/server', private: true },
      { dir: 'packages/a', name: '@x/a', private: false },
      { dir: 'tooling/kit', name: '@x/kit', private: true },
    ]);
  });

  it('refuses a package.json without a name', () => {
    write('tooling/nameless/package.json', '{}');
    expect(() => workspacePackages(root)).toThrow('tooling/nameless/package.json: name: expected a string');
  });
});
