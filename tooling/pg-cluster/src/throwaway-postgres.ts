import { postgresAvailability } from './postgres-availability.js';
import { startPostgres } from './start-postgres.js';
import type { PostgresCluster } from './start-postgres.js';
import { afterAll, beforeAll } from 'vitest';

/**
 * One throwaway PostgreSQL cluster for a vitest file: started before its tests, stopped after
 * (`@licence/pg-cluster/vitest`: the one entry that needs vitest, a peer dependency).
 * `available` is false only outside CI on a machine without the binaries (pg-cluster prints the
 * loud skip line then; in CI a missing binary fails instead). Call from the top of the file.
 */
export async function throwawayPostgres(
  label: string,
): Promise<{ readonly available: boolean; readonly cluster: () => PostgresCluster }> {
  const { binDir } = await postgresAvailability(label);
  let cluster: PostgresCluster | undefined;
  beforeAll(async () => {
    if (binDir !== null) cluster = await startPostgres({ binDir });
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });
  return {
    available: binDir !== null,
    cluster: () => {
      if (cluster === undefined) throw new Error('the PostgreSQL cluster is not started');
      return cluster;
    },
  };
}
