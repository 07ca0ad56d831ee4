import { findPostgresBinDir } from './find-postgres-bin.js';

export interface PostgresAvailability {
  /** The folder of initdb and pg_ctl, or null when the PostgreSQL tests must be skipped. */
  readonly binDir: string | null;
}

/**
 * Decides whether a test file runs its PostgreSQL tests: with the binaries, always;
 * without them, outside CI they are skipped with ONE loud line, and in CI (`CI=true`) this
 * rejects, so the file fails: CI must never pass by skipping the PostgreSQL suite.
 *
 * ```ts
 * const { binDir } = await postgresAvailability('store-postgres');
 * describe.skipIf(binDir === null)('...', () => { ... });
 * ```
 */
export async function postgresAvailability(
  suite: string,
  env: NodeJS.ProcessEnv = process.env,
  find: (env: NodeJS.ProcessEnv) => Promise<string | null> = findPostgresBinDir,
): Promise<PostgresAvailability> {
  const binDir = await find(env);
  if (binDir !== null) {
    return { binDir };
  }
  if (env.CI === 'true') {
    throw new Error(
      `PostgreSQL binaries not found (initdb, pg_ctl) and CI=true: the ${suite} PostgreSQL tests must run in CI; ` +
        'install the postgresql package or set PG_BIN_DIR',
    );
  }
  console.warn(
    `PostgreSQL binaries not found: skipping the ${suite} PostgreSQL tests (install postgresql or set PG_BIN_DIR; in CI they fail instead)`,
  );
  return { binDir: null };
}
