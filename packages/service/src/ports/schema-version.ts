/**
 * Thrown when a store's database was migrated by a newer build (docs/protocol.md#storage,
 * migrations): reading it could misread or lose data, so the store refuses it before anything is
 * written to it. `where` names the file or the database, never a password.
 */
export class SchemaVersionError extends Error {
  override readonly name = 'SchemaVersionError';
  constructor(
    readonly where: string,
    readonly found: number,
    readonly supported: number,
    /** The package to upgrade, named in the message. */
    readonly upgrade: string,
  ) {
    super(
      `${where}: schema version ${found} is newer than this build supports (${supported}); ` +
        `upgrade ${upgrade}, or use a copy of the data made before the upgrade`,
    );
  }
}

/** Throws a SchemaVersionError when `found` is above the `supported` version of this build. */
export function refuseNewerSchema(where: string, found: number, supported: number, upgrade: string): void {
  if (found > supported) {
    throw new SchemaVersionError(where, found, supported, upgrade);
  }
}

/**
 * The steps still to run on a database at version `from`, numbered from 1 (step N takes version
 * N - 1 to N), in order. Both stores' runners apply them; each keeps its own transaction and lock.
 */
export function pendingMigrations(
  steps: readonly string[],
  from: number,
): readonly { readonly version: number; readonly sql: string }[] {
  const pending: { readonly version: number; readonly sql: string }[] = [];
  for (let version = from + 1; version <= steps.length; version += 1) {
    const sql = steps[version - 1];
    if (sql === undefined) {
      throw new RangeError(`migration ${version} is missing`);
    }
    pending.push({ version, sql });
  }
  return pending;
}
