import { describe, expect, it } from 'vitest';
import { describeLength, functionLengths, longest, MAX_FUNCTION_LINES, tooLong } from './function-lengths.js';

/** A function declaration spanning exactly `lines` lines (at least 2): its header, statements, its brace. */
function functionOf(name: string, lines: number): string {
  const statements = Array.from({ length: lines - 2 }, (_unused, index) => `  const v${index} = ${index};`);
  return [`function ${name}() {`, ...statements, '}'].join('\n');
}

describe('functionLengths', () => {
  it('measures a function from its first line to its last, both counted', () => {
    expect(functionLengths('a.ts', functionOf('two', 2))).toEqual([{ file: 'a.ts', line: 1, name: 'two', lines: 2 }]);
    expect(functionLengths('a.ts', `\n\n${functionOf('ten', 10)}\n`)).toEqual([
      { file: 'a.ts', line: 3, name: 'ten', lines: 10 },
    ]);
  });

  it('starts at the function, not at the comment above it', () => {
    const text = `/**\n * Why.\n */\nexport ${functionOf('documented', 5)}`;
    expect(functionLengths('a.ts', text)).toEqual([{ file: 'a.ts', line: 4, name: 'documented', lines: 5 }]);
  });

  it('finds every kind of function, nested ones too, with the name a reader looks for', () => {
    const text = [
      'export const arrow = (x: number) => x + 1;',
      'const expression = function () {',
      '  return [1].map((y) => {',
      '    return y;',
      '  });',
      '};',
      'class Store {',
      '  constructor(private readonly n: number) {}',
      '  get size(): number {',
      '    return this.n;',
      '  }',
      '  read(): number {',
      '    return this.n;',
      '  }',
      '  field = () => 1;',
      '}',
      'const object = { method() { return 1; }, property: () => 2 };',
      'export default function () {}',
      'declare function overload(x: string): void;',
      'interface Shape { call(): void }',
    ].join('\n');
    expect(functionLengths('a.ts', text).map(({ name, line, lines }) => [name, line, lines])).toEqual([
      ['arrow', 1, 1],
      ['expression', 2, 5],
      ['(anonymous, passed to [1].map)', 3, 3],
      ['constructor', 8, 1],
      ['size', 9, 3],
      ['read', 12, 3],
      ['field', 15, 1],
      ['method', 17, 1],
      ['property', 17, 1],
      ['default export', 18, 1],
    ]);
  });
});

describe(`tooLong: the limit is ${MAX_FUNCTION_LINES} lines`, () => {
  it('passes a function of 80 lines', () => {
    const lengths = functionLengths('fixture.ts', functionOf('eighty', 80));
    expect(lengths).toEqual([{ file: 'fixture.ts', line: 1, name: 'eighty', lines: 80 }]);
    expect(tooLong(lengths)).toEqual([]);
  });

  it('fails a function of 81 lines, naming it', () => {
    const lengths = functionLengths('fixture.ts', `${functionOf('eighty', 80)}\n${functionOf('eightyOne', 81)}`);
    expect(tooLong(lengths).map(describeLength)).toEqual(['fixture.ts:81 eightyOne (81 lines)']);
  });

  it('counts a long callback inside a short function', () => {
    const inner = functionOf('inner', 81).replace('function inner() {', 'run(() => {').replace(/}$/, '});');
    const text = ['function outer() {', inner, '}'].join('\n');
    expect(tooLong(functionLengths('fixture.ts', text)).map(describeLength)).toEqual([
      'fixture.ts:1 outer (83 lines)',
      'fixture.ts:2 (anonymous, passed to run) (81 lines)',
    ]);
  });
});

describe('longest', () => {
  it('gives the longest first, ties in file and line order', () => {
    const lengths = [
      { file: 'b.ts', line: 1, name: 'b', lines: 5 },
      { file: 'a.ts', line: 9, name: 'a9', lines: 5 },
      { file: 'a.ts', line: 2, name: 'a2', lines: 5 },
      { file: 'c.ts', line: 1, name: 'c', lines: 7 },
    ];
    expect(longest(lengths, 3).map((length) => length.name)).toEqual(['c', 'a2', 'a9']);
  });
});
