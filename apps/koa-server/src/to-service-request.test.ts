import { describe, expect, it } from 'vitest';
import { lowerCaseHeaders } from './to-service-request.js';

describe('lowerCaseHeaders', () => {
  it('lower-cases names, joins lists with ", " and drops absent values', () => {
    expect(
      lowerCaseHeaders({ 'User-Agent': 'T/1', 'set-cookie': ['a=1', 'b=2'], 'x-none': undefined, host: 'h' }),
    ).toEqual({ 'user-agent': 'T/1', 'set-cookie': 'a=1, b=2', host: 'h' });
  });
});
