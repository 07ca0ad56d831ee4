import { describe, expect, it } from 'vitest';
import { importSpecifiers, isCodeFile } from './import-specifiers.js';

describe('importSpecifiers', () => {
  it('lists every way a source names a module, with its line', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b/index.js';",
      "import './side-effect.js';",
      "export { c } from './c.js';",
      "export * from './d.js';",
      "import e = require('./e.js');",
      "const f = await import('./f.js');",
      "const g = require('g');",
      "type H = import('./h.js').H;",
      "vi.mock('../verdict/verdict.js');",
      'import {',
      '  i,',
      "} from 'i';",
    ].join('\n');
    expect(importSpecifiers('a.ts', text)).toEqual([
      { specifier: './a.js', line: 1 },
      { specifier: '../b/index.js', line: 2 },
      { specifier: './side-effect.js', line: 3 },
      { specifier: './c.js', line: 4 },
      { specifier: './d.js', line: 5 },
      { specifier: './e.js', line: 6 },
      { specifier: './f.js', line: 7 },
      { specifier: 'g', line: 8 },
      { specifier: './h.js', line: 9 },
      { specifier: '../verdict/verdict.js', line: 10 },
      { specifier: 'i', line: 13 },
    ]);
  });

  it('skips what names no module: a local export, a computed specifier, an import in a string or a comment', () => {
    const text = [
      'export { local };',
      'const local = 1;',
      "await import('./' + local + '.js');",
      'const text = "import x from \'./x.js\'";',
      "// import y from './y.js';",
      "other.mock('./z.js');",
    ].join('\n');
    expect(importSpecifiers('a.ts', text)).toEqual([]);
  });

  it('reads JSX in .tsx and CommonJS in .cjs', () => {
    expect(importSpecifiers('a.tsx', "import { h } from 'preact';\nexport const A = () => <div>{h}</div>;")).toEqual([
      { specifier: 'preact', line: 1 },
    ]);
    expect(importSpecifiers('a.cjs', "const { b } = require('./b.cjs');\nmodule.exports = b;")).toEqual([
      { specifier: './b.cjs', line: 1 },
    ]);
  });
});

describe('isCodeFile', () => {
  it.each([
    ['a.ts', true],
    ['a.tsx', true],
    ['a.mts', true],
    ['a.cjs', true],
    ['a.js', true],
    ['a.d.ts', true],
    ['a.json', false],
    ['README.md', false],
    ['a.ts.snap', false],
  ])('%s: %s', (path, code) => {
    expect(isCodeFile(path)).toBe(code);
  });
});
