import pg from 'pg';

/** A plain client on `url`, for what the port does not offer (schema checks, locks, bulk rows), ended after `work`. */
export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
