import { describe, expect, it } from 'vitest';
import { importSpecifiers } from './import-specifiers.js';
import { innerFileWing, misplacedServiceFiles, serviceImportOffences, wingOf } from './service-wings.js';

const src = 'packages/service/src';

describe('wingOf and innerFileWing', () => {
  it.each([
    [`${src}/admin/key-admin.ts`, 'admin'],
    [`${src}/admin/deep/inner.ts`, 'admin'],
    [`${src}/index.ts`, ''],
    ['packages/service/test/harness.ts', null],
    ['packages/service-other/src/admin/a.ts', null],
  ])('the wing of %s is %s', (path, wing) => {
    expect(wingOf(path)).toBe(wing);
  });

  it.each([
    [`${src}/verdict/verdict`, 'verdict'],
    [`${src}/verdict/deep/inner`, 'verdict'],
    [`${src}/verdict/deep/index`, 'verdict'],
    [`${src}/verdict/index`, null],
    [`${src}/verdict`, null],
    [`${src}/index`, null],
    [src, null],
    ['packages/service/test/harness', null],
  ])('%s is an inner file of %s', (target, wing) => {
    expect(innerFileWing(target)).toBe(wing);
  });
});

describe('misplacedServiceFiles (rule a)', () => {
  it('passes index.ts (and ports.ts) and tests at the root, and wings with their doors', () => {
    const paths = [
      `${src}/index.ts`,
      `${src}/ports.ts`,
      `${src}/exports.test.ts`,
      `${src}/admin/index.ts`,
      `${src}/admin/key-admin.ts`,
      `${src}/admin/deep/inner.ts`,
      `${src}/README.md`,
      `${src}/__snapshots__/exports.test.ts.snap`,
    ];
    expect(misplacedServiceFiles(paths)).toEqual([]);
  });

  it('names a source file at the root and a wing without its door', () => {
    const paths = [
      `${src}/index.ts`,
      `${src}/verdict.ts`,
      `${src}/helpers.tsx`,
      `${src}/buyer/page.ts`,
      `${src}/buyer/deep/index.ts`,
    ];
    expect(misplacedServiceFiles(paths)).toEqual([
      `${src}/verdict.ts: a source file at src's root, outside any wing; move it into its wing's folder`,
      `${src}/helpers.tsx: a source file at src's root, outside any wing; move it into its wing's folder`,
      `${src}/buyer/: no index.ts, the wing's one door`,
    ]);
  });
});

/** The offences of one file whose text is `lines`. */
function offences(file: string, ...lines: string[]): string[] {
  return serviceImportOffences(file, importSpecifiers(file, lines.join('\n')));
}

describe('serviceImportOffences (rule b)', () => {
  it("lets a wing's files import each other and other wings' doors", () => {
    expect(
      offences(
        `${src}/admin/key-admin.ts`,
        "import { a } from './admin-auth.js';",
        "import { b } from './deep/inner.js';",
        "import { c } from '../verdict/index.js';",
        "import type { D } from '../ports/index.js';",
        "import { e } from '@licence/core';",
        "import { f } from '../../test/harness.js';",
      ),
    ).toEqual([]);
    expect(offences(`${src}/admin/deep/inner.ts`, "import { a } from '../key-admin.js';")).toEqual([]);
  });

  it("names an import of another wing's inner file, with the door to use instead", () => {
    expect(
      offences(
        `${src}/admin/key-admin.ts`,
        "import { a } from '../verdict/index.js';",
        "import { hashKey } from '../verdict/key-hash.js';",
        "export type { Store } from '../ports/store-port.js';",
      ),
    ).toEqual([
      `${src}/admin/key-admin.ts:2 imports '../verdict/key-hash.js': an inner file of the verdict wing; import its door, '../verdict/index.js'`,
      `${src}/admin/key-admin.ts:3 imports '../ports/store-port.js': an inner file of the ports wing; import its door, '../ports/index.js'`,
    ]);
  });

  it('holds tests to the same rule, mocks included', () => {
    expect(
      offences(
        `${src}/admin/admin-routes.test.ts`,
        "import { a } from './admin-routes.js';",
        "vi.mock('../webhooks/webhook-transport.js');",
      ),
    ).toEqual([
      `${src}/admin/admin-routes.test.ts:2 imports '../webhooks/webhook-transport.js': an inner file of the webhooks wing; import its door, '../webhooks/index.js'`,
    ]);
  });

  it('lets the root index.ts import doors only', () => {
    expect(
      offences(
        `${src}/index.ts`,
        "export { createService } from './service/index.js';",
        "export { hashKey } from './verdict/key-hash.js';",
      ),
    ).toEqual([
      `${src}/index.ts:2 imports './verdict/key-hash.js': an inner file of the verdict wing; import its door, './verdict/index.js'`,
    ]);
  });

  it("lets the package's test/ import doors and the root only", () => {
    expect(
      offences(
        'packages/service/test/harness.ts',
        "import { createService } from '../src/index.js';",
        "import { createNodeSigner } from '../src/ports/index.js';",
        "import { createMemoryStore } from '@licence/store-memory';",
        "import { answerVerdict } from '../src/verdict/verdict.js';",
      ),
    ).toEqual([
      "packages/service/test/harness.ts:4 imports '../src/verdict/verdict.js': an inner file of the verdict wing; import its door, '../src/verdict/index.js'",
    ]);
  });

  it("names a relative import of the service's source from outside the package, root and doors included", () => {
    expect(
      offences(
        'apps/koa-server/src/create-app.ts',
        "import { createService } from '@licence/service';",
        "import { createService as c } from '../../../packages/service/src/index.js';",
        "import { problem } from '../../../packages/service/src/http/index.js';",
        "import { other } from '../../../packages/service-other/src/index.js';",
      ),
    ).toEqual([
      "apps/koa-server/src/create-app.ts:2 imports '../../../packages/service/src/index.js': @licence/service's source by path, from outside the package; import '@licence/service'",
      "apps/koa-server/src/create-app.ts:3 imports '../../../packages/service/src/http/index.js': @licence/service's source by path, from outside the package; import '@licence/service'",
    ]);
  });

  it('names a deep path of @licence/service wherever it is', () => {
    const deep = "a deep path into @licence/service, whose one entry is its root; import '@licence/service'";
    expect(
      offences('tooling/store-contract/src/x.ts', "import { storeContract } from '@licence/service/testing';"),
    ).toEqual([`tooling/store-contract/src/x.ts:1 imports '@licence/service/testing': ${deep}`]);
    expect(offences(`${src}/admin/a.test.ts`, "import { x } from '@licence/service/admin';")).toEqual([
      `${src}/admin/a.test.ts:1 imports '@licence/service/admin': ${deep}`,
    ]);
    expect(offences('packages/store-memory/src/a.ts', "import type { Store } from '@licence/service';")).toEqual([]);
  });
});
