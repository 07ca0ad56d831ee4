import { describe, expect, it } from 'vitest';
import { pendingMigrations, refuseNewerSchema, SchemaVersionError } from './schema-version.js';

describe('schema versions (docs/protocol.md#storage)', () => {
  it('refuses a newer version, naming where, both versions and the package to upgrade', () => {
    expect(() => refuseNewerSchema('data/licence.db', 3, 2, '@licence/store-sqlite')).toThrow(
      'data/licence.db: schema version 3 is newer than this build supports (2); ' +
        'upgrade @licence/store-sqlite, or use a copy of the data made before the upgrade',
    );
    const error = (() => {
      try {
        refuseNewerSchema('db', 5, 1, 'x');
      } catch (caught) {
        return caught;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(SchemaVersionError);
    expect(error).toMatchObject({ name: 'SchemaVersionError', where: 'db', found: 5, supported: 1, upgrade: 'x' });
  });

  it('accepts the current version and older ones', () => {
    expect(() => refuseNewerSchema('db', 2, 2, 'x')).not.toThrow();
    expect(() => refuseNewerSchema('db', 0, 2, 'x')).not.toThrow();
  });

  it('lists the steps still to run, numbered from 1', () => {
    const steps = ['one', 'two', 'three'];
    expect(pendingMigrations(steps, 0)).toEqual([
      { version: 1, sql: 'one' },
      { version: 2, sql: 'two' },
      { version: 3, sql: 'three' },
    ]);
    expect(pendingMigrations(steps, 2)).toEqual([{ version: 3, sql: 'three' }]);
    expect(pendingMigrations(steps, 3)).toEqual([]);
  });

  it('refuses a list with a hole', () => {
    const steps: string[] = ['one'];
    steps[2] = 'three';
    expect(() => pendingMigrations(steps, 0)).toThrow('migration 2 is missing');
  });
});
