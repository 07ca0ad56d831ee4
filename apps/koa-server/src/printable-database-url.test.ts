import { describe, expect, it } from 'vitest';
import { printableDatabaseUrl } from './printable-database-url.js';

describe('printableDatabaseUrl', () => {
  it('keeps a URL without a password whole', () => {
    expect(printableDatabaseUrl('postgres://postgres@127.0.0.1:5432/licence')).toBe(
      'postgres://postgres@127.0.0.1:5432/licence',
    );
    expect(printableDatabaseUrl('postgresql:///licence')).toBe('postgresql:///licence');
  });

  it('never prints the password', () => {
    const printed = printableDatabaseUrl('postgres://licence:s3cret%21pw@db.example:5432/licence?sslmode=require');
    expect(printed).toBe('postgres://licence:<password>@db.example:5432/licence?sslmode=require');
    expect(printed).not.toContain('s3cret');
  });

  it('prints a placeholder for what is not a URL', () => {
    expect(printableDatabaseUrl('host=db password=s3cret')).toBe('<DATABASE_URL>');
  });
});
