import { describe, expect, it } from 'vitest';
import { formatHuman } from './format-human.js';

describe('formatHuman', () => {
  it('prints fields, nulls, empty lists and nested lists as an outline', () => {
    const text = formatHuman({
      produit: 'theme',
      count: 1,
      expire: null,
      empty: '',
      none: [],
      keys: [{ hint: 'SJXJ', domains: [{ domain: 'exemple.fr', firstSeen: '2026-11-22T20:25:25Z' }] }],
    });
    expect(text).toBe(
      [
        'produit: theme',
        'count: 1',
        'expire: -',
        'empty: ""',
        'none: (none)',
        'keys:',
        '  - hint: SJXJ',
        '    domains:',
        '      - domain: exemple.fr',
        '        firstSeen: 2026-11-22T20:25:25Z',
        '',
      ].join('\n'),
    );
  });

  it('prints a scalar as one line', () => {
    expect(formatHuman(3)).toBe('3\n');
  });
});
