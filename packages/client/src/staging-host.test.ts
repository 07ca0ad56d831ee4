import { loadStagingVectors, type StagingMatchCase } from '@licence/vectors';
import { describe, expect, it } from 'vitest';
import { isStagingHost } from './staging-host.js';

const matchCases = loadStagingVectors().cases.filter((c): c is StagingMatchCase => 'hote' in c);

describe('isStagingHost on the shared vectors (docs/protocol.md#staging-hosts)', () => {
  it('has host cases to run, with and without patterns of their own', () => {
    expect(matchCases.length).toBeGreaterThan(50);
    expect(matchCases.some((c) => c.patterns !== undefined)).toBe(true);
    expect(matchCases.some((c) => c.staging === false)).toBe(true);
  });

  it.each(matchCases)('$name', (c) => {
    expect(isStagingHost(c.hote, c.patterns)).toBe(c.staging);
  });
});
