import { describe, expect, it } from 'vitest';
import type { InstallationsView } from './api-types.js';
import { installationsCsv, installationsFileName } from './installations-csv.js';

const view: InstallationsView = {
  produit: 'mon-plugin',
  count: 2,
  keys: [
    {
      hint: 'AB12',
      kind: 'buyer',
      status: 'active',
      domains: [
        { domain: 'exemple.fr', firstSeen: '2026-01-02T03:04:05Z', lastSeen: '2026-02-03T04:05:06Z' },
        { domain: '=cmd.example', firstSeen: '2026-01-05T00:00:00Z', lastSeen: '2026-01-06T00:00:00Z' },
      ],
    },
    { hint: 'CD34', kind: 'trial', status: 'active', domains: [] },
  ],
};

describe('installationsCsv', () => {
  it('writes a record per bound domain, and one with empty domain fields for a key bound to none', () => {
    expect(installationsCsv(view).split('\r\n')).toEqual([
      'produit,hint,kind,status,domain,firstSeen,lastSeen',
      'mon-plugin,AB12,buyer,active,exemple.fr,2026-01-02T03:04:05Z,2026-02-03T04:05:06Z',
      "mon-plugin,AB12,buyer,active,'=cmd.example,2026-01-05T00:00:00Z,2026-01-06T00:00:00Z",
      'mon-plugin,CD34,trial,active,,,',
      '',
    ]);
  });

  it('names the file after the product and the UTC day', () => {
    expect(installationsFileName('mon-plugin', new Date('2026-03-04T23:30:00Z'))).toBe(
      'installations-mon-plugin-2026-03-04.csv',
    );
  });
});
