import { describe, expect, it } from 'vitest';
import { SERVE_COMMAND, USAGE } from './cli-commands.js';
import { loadConfig } from './config.js';

describe('the usage of `licence --help` (docs/protocol.md#the-licence-cli)', () => {
  it('lists every variable the configuration reads', () => {
    // The environment as loadConfig sees it, recording each name asked for: a variable added to the
    // configuration without a line in the help fails here.
    const read = new Set<string>();
    const env = new Proxy<Record<string, string | undefined>>(
      {},
      {
        get: (_target, name) => {
          if (typeof name === 'string') read.add(name);
          return undefined;
        },
      },
    );
    expect(loadConfig(env, '/srv/licence', 2).ok).toBe(true);
    expect(read.size).toBeGreaterThanOrEqual(16);
    const listed = new Set(USAGE.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*\b/g));
    expect([...read].filter((name) => !listed.has(name))).toEqual([]);
  });

  it('names the connection caps and LICENCE_WORKERS with their defaults', () => {
    expect(USAGE).toMatch(/^ {2}LICENCE_MAX_CONNECTIONS {2,}connections serve holds at once \[10000\]$/m);
    expect(USAGE).toMatch(
      /^ {2}LICENCE_MAX_CONNECTIONS_PER_IP {2,}connections at once from one client address \[100\]$/m,
    );
    expect(USAGE).toMatch(
      /^ {2}LICENCE_WORKERS {2,}worker processes of serve: 1 to 64, or auto \(one per core\) \[1\]$/m,
    );
  });

  it('starts the server with node itself, so that SIGTERM reaches it, and shows --product beside --produit', () => {
    expect(USAGE).toContain(`\n  ${SERVE_COMMAND} `);
    expect(SERVE_COMMAND).toBe('node apps/koa-server/bin/licence.mjs serve');
    expect(USAGE).toContain('--product <id> is --produit');
  });
});
