import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeLength, functionLengths, longest, MAX_FUNCTION_LINES, tooLong } from '../src/function-lengths.js';
import { sourceFiles } from '../src/source-files.js';

/**
 * The repository's rule that no linter checks: no function in packages/*\/src or apps/*\/src is
 * longer than 80 lines, from its first line to its last (tests aside), so each reads at once.
 */

const root = fileURLToPath(new URL('../../..', import.meta.url));
const files = sourceFiles(root);
const lengths = files.flatMap((file) => functionLengths(file, readFileSync(join(root, file), 'utf8')));

describe('the shape of packages/*/src and apps/*/src', () => {
  it('reads the sources of the packages and apps', () => {
    expect(files).toContain('packages/core/src/index.ts');
    expect(files).toContain('apps/koa-server/src/index.ts');
    expect(files.filter((file) => file.endsWith('.test.ts'))).toEqual([]);
    expect(lengths.length).toBeGreaterThan(files.length);
  });

  it(`has no function longer than ${MAX_FUNCTION_LINES} lines`, () => {
    // One line in the log, for whoever shortens the next one.
    console.log(`longest functions: ${longest(lengths, 5).map(describeLength).join('; ')}`);
    expect(tooLong(lengths).map(describeLength)).toEqual([]);
  });
});
