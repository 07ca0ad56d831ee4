import { describe, expect, it } from 'vitest';
import { stagingList, stagingText } from './staging-text.js';

describe('stagingList', () => {
  it('reads one pattern a line, trimmed, blank lines dropped, in the order typed', () => {
    expect(stagingList('  *.example.dev \n\n staging-*.shop.example\r\n')).toEqual([
      '*.example.dev',
      'staging-*.shop.example',
    ]);
  });

  it('splits on commas too, as LICENCE_STAGING_HOSTS is written', () => {
    expect(stagingList('a.example, *.b.example,,c.example')).toEqual(['a.example', '*.b.example', 'c.example']);
  });

  it('an empty or blank box is no pattern at all (the list is cleared)', () => {
    expect(stagingList('')).toEqual([]);
    expect(stagingList(' \n , \n')).toEqual([]);
  });

  it('leaves every rule to the service: a space inside, capitals, two stars are sent as typed', () => {
    expect(stagingList('bad host.example\n*.*.Example.COM')).toEqual(['bad host.example', '*.*.Example.COM']);
  });
});

describe('stagingText', () => {
  it('shows one pattern a line, and reads back to the same list', () => {
    const patterns = ['*.example.dev', 'staging-*.shop.example'];
    expect(stagingText(patterns)).toBe('*.example.dev\nstaging-*.shop.example');
    expect(stagingList(stagingText(patterns))).toEqual(patterns);
    expect(stagingText([])).toBe('');
  });
});
