import { postgresAvailability, startPostgres } from '@licence/pg-cluster';
import type { PostgresCluster } from '@licence/pg-cluster';
import { afterAll, beforeAll } from 'vitest';

/**
 * One throwaway PostgreSQL cluster for a test file (tooling/pg-cluster), started before its tests
 * and stopped after. `available` is false only outside CI on a machine without the binaries
 * (pg-cluster prints one loud skip line then); with CI=true a missing binary fails the file.
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
