import { createServer } from 'node:net';

/**
 * A loopback TCP port that was free a moment ago (the kernel picks it for port 0). Another
 * process may take it before PostgreSQL binds it; startPostgres retries on a fresh port then.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address === null || typeof address === 'string') {
          reject(new Error(`freePort: expected a TCP address, got ${String(address)}`));
        } else {
          resolve(address.port);
        }
      });
    });
  });
}
