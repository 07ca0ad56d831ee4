/**
 * What the runner needs of a server, whatever serves it (Koa on SQLite or PostgreSQL, the Lambda
 * handler behind its local runner): a base URL on loopback, the admin token it was started with,
 * the public key its verdicts must verify with, and the service clock the test can move.
 */
export interface VectorTarget {
  /** `http://127.0.0.1:<port>`: requests go to this origin with the vector's path. */
  readonly url: string;
  /** The Bearer token of the admin API; null when it is off. */
  readonly adminToken: string | null;
  /** base64 of the raw 32-byte Ed25519 public key (docs/protocol.md#signature). */
  readonly publicKey: string;
  /** The service's clock; `advance` steps move it. */
  readonly clock: { advance(seconds: number): void };
}

/** A target whose log lines the test can read (every JSON line the server wrote, in order). */
export interface LoggedVectorTarget extends VectorTarget {
  readonly lines: readonly string[];
}
