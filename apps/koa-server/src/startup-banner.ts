/**
 * What the server prints when it starts (docs/protocol.md#signature): the URL, the public key
 * clients must trust, the exact commands that issue a first key through the CLI on the same
 * data folder, and where the console is. Pure: the caller says where the CLI is and writes the lines out.
 */
export interface BannerInput {
  readonly url: string;
  /** base64, 32 bytes. */
  readonly publicKey: string;
  /** Absolute. */
  readonly dataDir: string;
  /** How to run the CLI, e.g. `node /srv/licence/apps/koa-server/dist/cli.js`. */
  readonly cli: string;
  readonly createdSigningKey: boolean;
  /** Where the key file is when the embedded default holds it; undefined when configured. */
  readonly signingKeyFile: string | undefined;
  readonly adminApi: boolean;
  /**
   * DATABASE_URL as it may be printed (printableDatabaseUrl: no password) when the server runs on
   * PostgreSQL; undefined on the embedded SQLite file.
   */
  readonly databaseUrl?: string;
  /** LICENCE_WEBHOOK_ALLOW_PRIVATE=1: a safety rule lifted, so the banner says so. */
  readonly webhookAllowPrivate?: boolean;
  /** LICENCE_STAGING_HOSTS' patterns (docs/protocol.md#staging-hosts); none: no line. */
  readonly stagingHosts?: readonly string[];
  /** LICENCE_WORKERS; 1 (one process, the default): no line. */
  readonly workers?: number;
  /**
   * What the start says about TRUST_PROXY and the HOST listened on (docs/protocol.md#client-address):
   * ServiceConfig's `clientAddress.notice(host)`; without TRUST_PROXY, or unset, no line.
   */
  readonly trustProxyNotice?: { readonly info?: string; readonly warning?: string };
}

/** The public endpoint's path (docs/protocol.md#request), which the printed `curl` checks a key on. */
const LICENCE_PATH = '/api/licence';

export function startupBanner(input: BannerInput): string {
  // The CLI must reach the same store: the data folder's SQLite file, or the same DATABASE_URL.
  const env =
    input.databaseUrl === undefined
      ? `LICENCE_DATA_DIR=${shellQuote(input.dataDir)}`
      : `DATABASE_URL=${shellQuote(input.databaseUrl)}`;
  const lines = [
    `licence service listening on ${input.url}`,
    `public key (base64, give it to your products): ${input.publicKey}`,
  ];
  if (input.databaseUrl !== undefined) lines.push(`database: PostgreSQL (DATABASE_URL) ${input.databaseUrl}`);
  if ((input.workers ?? 1) > 1) lines.push(`workers: ${input.workers} processes (LICENCE_WORKERS)`);
  if (input.signingKeyFile !== undefined) {
    lines.push(
      input.createdSigningKey
        ? `signing key created: ${input.signingKeyFile} (mode 0600; back it up, keep it secret)`
        : `signing key: ${input.signingKeyFile}`,
    );
  }
  lines.push(
    'issue a first key (in another terminal):',
    `  ${env} ${input.cli} product add my-product --author me --name "My product"`,
    `  ${env} ${input.cli} key issue --produit my-product --kind buyer`,
    `then check it: curl -A 'my-product/1.0' -H 'Content-Type: application/json' -d '{"cle":"<the key>","url":"example.com"}' ${input.url}${LICENCE_PATH}`,
  );
  // docs/protocol.md#console: served with the admin API, which is all it talks to.
  if (input.adminApi) {
    lines.push(`console: ${input.url}/console (sign in with LICENCE_ADMIN_TOKEN, or an author's token)`);
  } else {
    lines.push('admin HTTP API: off (set LICENCE_ADMIN_TOKEN to turn it on, and the console at /console)');
  }
  // docs/protocol.md#webhooks: the rule against server-side request forgery is off; an operator who
  // set it for a test and forgot must see it at every start.
  if (input.webhookAllowPrivate === true) {
    lines.push(
      'webhooks: LICENCE_WEBHOOK_ALLOW_PRIVATE=1: endpoints may use http and reach private, loopback and link-local addresses (for local receivers only)',
    );
  }
  // docs/protocol.md#client-address: how the client address is read, and the hop count's trap.
  const proxy = input.trustProxyNotice ?? {};
  if (proxy.info !== undefined) lines.push(proxy.info);
  if (proxy.warning !== undefined) lines.push(proxy.warning);
  // docs/protocol.md#staging-hosts: hosts that never bind for any key; the operator sees which.
  const staging = input.stagingHosts ?? [];
  if (staging.length > 0) {
    lines.push(
      `staging hosts (LICENCE_STAGING_HOSTS, beyond the built-in ones): ${staging.length} pattern(s): ${staging.join(', ')}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const SAFE = /^[A-Za-z0-9_./:=@%+,-]+$/;

/** POSIX shell single quoting, so a printed command can be pasted as is. */
export function shellQuote(value: string): string {
  if (value !== '' && SAFE.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
