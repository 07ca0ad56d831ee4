import { afterEach, describe, expect, it, vi } from 'vitest';
import { postgresAvailability } from './postgres-availability.js';

// The machine's own binaries cannot be hidden from the finder, so these cases hand it the answer.
const none = async (): Promise<string | null> => null;
const found = async (): Promise<string | null> => '/opt/pg/bin';

describe('postgresAvailability (skip loudly outside CI, fail in CI)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('gives the folder when the binaries are there, in CI or not, and says nothing', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(await postgresAvailability('x', { CI: 'true' }, found)).toEqual({ binDir: '/opt/pg/bin' });
    expect(await postgresAvailability('x', {}, found)).toEqual({ binDir: '/opt/pg/bin' });
    expect(warn).not.toHaveBeenCalled();
  });

  it('skips outside CI with one loud line', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(await postgresAvailability('store-postgres', { CI: 'false' }, none)).toEqual({ binDir: null });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(
      /^PostgreSQL binaries not found: skipping the store-postgres PostgreSQL tests/,
    );
  });

  it('fails in CI instead of skipping', async () => {
    await expect(postgresAvailability('store-postgres', { CI: 'true' }, none)).rejects.toThrow(
      /PostgreSQL binaries not found .* CI=true: the store-postgres PostgreSQL tests must run in CI/,
    );
  });
});
