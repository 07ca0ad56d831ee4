import { KEY_KINDS, type KeyKind } from '@licence/core';
import { normalisePublicUrl, publicUrlFault } from '../config/index.js';
import * as fields from './fields.js';
import type { CommandArguments, CommandMistake } from './operation.js';
import { command, inputs, mistake, operation, param } from './operation.js';
import { given, givenOptions, withKey } from './command-values.js';
import { buyerLink } from './buyer-link.js';
import { issueKey } from './issue.js';
import { regenerateKey, transferKey } from './replace.js';
import { revokeKey } from './revoke.js';
import { showKey } from './show.js';
import { parseDateTime } from './parse-date-time.js';

/**
 * The keys' operations (docs/protocol.md#key-lifecycle, #buyer-links): their routes, scopes and
 * commands, each declared once (operation.ts). A command takes the whole key, never its hint
 * (command-values.ts `withKey`).
 */

/** docs/protocol.md#key-lifecycle: what the CLI says under a new key. */
const KEY_SHOWN_ONCE =
  'the key is shown only this once; the service keeps only its hash (docs/protocol.md#key-lifecycle)';

interface KeyIssueAction {
  readonly name: 'key issue';
  readonly produit: string;
  readonly kind: KeyKind;
  readonly sites?: number;
  /** The trial's end, in whole seconds since the epoch. */
  readonly expire?: number;
}

/**
 * `--produit`, or its English alias `--product` (docs/protocol.md#the-licence-cli: `--produit` is the
 * wire field's name, which scripts rely on); one of them is required, and both only when they agree.
 */
function productOption(args: CommandArguments): string | CommandMistake {
  const { produit, product } = givenOptions(args, ['produit', 'product']);
  if (produit !== undefined && product !== undefined && produit !== product) {
    return mistake('key issue: --product is another name for --produit; give one of them');
  }
  return produit ?? product ?? mistake('key issue: --produit (or --product) is required', true);
}

/**
 * Which of `--sites` and `--expire` a kind takes (docs/protocol.md#administration): a trial needs its
 * end, only a trial has one, a dev key binds no domain. The operation keeps the same rules for the
 * admin API (rules.ts `sites` and `expireAllowed`); the CLI says them first so that a
 * wrong combination is a usage mistake (exit 2), as a malformed value is.
 */
function optionsOfKind(kind: KeyKind, sites: boolean, expire: boolean): string | undefined {
  if (kind === 'trial' && !expire)
    return "--kind trial needs --expire, the trial's end (ISO 8601, such as 2026-12-31T23:59:59Z)";
  if (kind !== 'trial' && expire) return `--expire is for --kind trial only; leave it out for a ${kind} key`;
  if (kind === 'dev' && sites) return 'a dev key binds no domain; leave --sites out';
  return undefined;
}

/**
 * `--kind` is one of the kinds, `--sites` a whole number and `--expire` an RFC 3339 date-time with a
 * zone (docs/protocol.md#administration), or it is a usage mistake; so is an option the kind does
 * not take or lacks. The ranges are the operation's, with its messages.
 */
function readKeyIssue(args: CommandArguments): KeyIssueAction | CommandMistake {
  const produit = productOption(args);
  if (typeof produit !== 'string') return produit;
  const kind = args.option('kind');
  const keyKind = KEY_KINDS.find((candidate) => candidate === kind);
  if (keyKind === undefined) {
    return mistake(
      `key issue: --kind must be one of ${KEY_KINDS.join(', ')}${kind === undefined ? '' : `, got "${kind}"`}`,
    );
  }
  const { sites, expire } = givenOptions(args, ['sites', 'expire']);
  if (sites !== undefined && !/^[0-9]{1,6}$/.test(sites)) {
    return mistake(`key issue: --sites must be a whole number, got "${sites}"`);
  }
  const end = expire === undefined ? undefined : parseDateTime(expire);
  if (end === null) {
    return mistake(
      `key issue: --expire must be an ISO 8601 date-time with a time zone, such as 2026-12-31T23:59:59Z, got "${expire}"`,
    );
  }
  const mismatch = optionsOfKind(keyKind, sites !== undefined, expire !== undefined);
  if (mismatch !== undefined) return mistake(`key issue: ${mismatch}`, true);
  return {
    name: 'key issue',
    produit,
    kind: keyKind,
    ...(sites === undefined ? {} : { sites: Number(sites) }),
    ...(end === undefined ? {} : { expire: end }),
  };
}

interface BuyerLinkAction {
  readonly name: 'key buyer-link';
  readonly cle: string;
  /** docs/protocol.md#buyer-links: seconds; absent, the service's default (a day). */
  readonly ttl?: number;
  /** `--base`: the public URL to build the link on, normalised; absent, LICENCE_PUBLIC_URL's. */
  readonly base?: string;
}

/**
 * `--ttl` is a whole number of seconds and `--base` a public URL (the rule of LICENCE_PUBLIC_URL), or
 * it is a usage mistake; the ttl's range is the operation's, with its message.
 */
function readBuyerLink(args: CommandArguments): BuyerLinkAction | CommandMistake {
  const { ttl, base } = givenOptions(args, ['ttl', 'base']);
  if (ttl !== undefined && !/^[0-9]{1,9}$/.test(ttl)) {
    return mistake(`key buyer-link: --ttl must be a whole number of seconds, got "${ttl}"`);
  }
  const fault = base === undefined ? null : publicUrlFault(base);
  if (fault !== null) return mistake(`key buyer-link: --base ${fault}`);
  return withKey('key buyer-link', args, (cle) => ({
    name: 'key buyer-link',
    cle,
    ...(ttl === undefined ? {} : { ttl: Number(ttl) }),
    ...(base === undefined ? {} : { base: normalisePublicUrl(base) }),
  }));
}

/** A command whose one positional is the key, and nothing else. */
function keyCommand(name: string, extra: { readonly helpNote?: string; readonly notice?: string } = {}) {
  return command({
    usage: `${name} <cle> [--json]`,
    help: `${name} <cle>`,
    read: (args: CommandArguments) => withKey(name, args, (cle) => ({ name, cle })),
    args: (action) => inputs(action.cle),
    ...extra,
  });
}

const issueKeyOperation = operation(issueKey, {
  route: 'POST /admin/keys',
  summary: 'Issue a key for a product: buyer, trial or dev (the key is shown this once)',
  scope: { operator: false, resource: 'product' },
  input: ({ body }) => inputs(fields.issueKeyInput(body)),
  command: command({
    usage:
      'key issue --produit <id> --kind buyer|trial|dev [--sites N] [--expire ISO-8601] [--json]  (--product <id> is the same as --produit)',
    help: 'key issue --produit <id> --kind buyer|trial|dev [--sites N] [--expire ISO-8601]',
    helpNote: "--product <id> is --produit (the wire field's name) in English",
    read: readKeyIssue,
    args: (action) =>
      inputs({ produit: action.produit, kind: action.kind, sites: action.sites, expire: action.expire }),
    notice: KEY_SHOWN_ONCE,
  }),
});

const showKeyOperation = operation(showKey, {
  route: 'GET /admin/keys/:cle',
  summary: 'A key by the whole key: its product, kind, status, sites and bound domains',
  scope: { operator: false, resource: 'key' },
  input: (parts) => inputs(param(parts, 'cle')),
  command: keyCommand('key show', { helpNote: 'the whole key: the service finds a key by it, not by its hint' }),
});

const regenerateKeyOperation = operation(regenerateKey, {
  route: 'POST /admin/keys/:cle/regenerate',
  summary: 'A new key in place of this one, with its domains; the old one answers `regeneration`',
  scope: { operator: false, resource: 'key' },
  input: (parts) => inputs(param(parts, 'cle')),
  command: keyCommand('key regenerate', { notice: KEY_SHOWN_ONCE }),
});

const transferKeyOperation = operation(transferKey, {
  route: 'POST /admin/keys/:cle/transfer',
  summary: 'A new key with a domain moved or freed; the old one answers `transfert`',
  scope: { operator: false, resource: 'key' },
  input: (parts) => inputs(param(parts, 'cle'), fields.transferInput(parts.body)),
  command: command({
    usage: 'key transfer <cle> [--from <host>] [--to <host>] [--json]',
    help: 'key transfer <cle> [--from <host>] [--to <host>]',
    read: (args) =>
      withKey('key transfer', args, (cle) => ({ name: 'key transfer', cle, ...givenOptions(args, ['from', 'to']) })),
    args: (action) => inputs(action.cle, { from: action.from, to: action.to }),
    notice: KEY_SHOWN_ONCE,
  }),
});

const revokeKeyOperation = operation(revokeKey, {
  route: 'POST /admin/keys/:cle/revoke',
  status: 200,
  summary: 'Revoke a key for good, with a reason',
  scope: { operator: false, resource: 'key' },
  input: (parts) => inputs(param(parts, 'cle'), fields.revokeInput(parts.body)),
  command: command({
    usage: 'key revoke <cle> [--reason <text>] [--json]',
    help: 'key revoke <cle> [--reason <text>]',
    read: (args) =>
      withKey('key revoke', args, (cle) => ({ name: 'key revoke', cle, ...given('reason', args.option('reason')) })),
    args: (action) => inputs(action.cle, { reason: action.reason }),
  }),
});

const buyerLinkOperation = operation(buyerLink, {
  route: 'POST /admin/keys/:cle/buyer-link',
  summary: "A link for the key's buyer to their own page (docs/protocol.md#buyer-links)",
  scope: { operator: false, resource: 'key' },
  signs: true,
  input: (parts) => {
    const input = fields.buyerLinkInput(parts.body);
    return inputs(param(parts, 'cle'), parts.publicBase(), input);
  },
  command: command({
    usage:
      "key buyer-link <cle> [--ttl <seconds>] [--base <url>] [--json]  (the link opens the key's page to whoever has it)",
    help: 'key buyer-link <cle> [--ttl <seconds>] [--base <url>]',
    helpNote: "a link for the key's buyer (LICENCE_PUBLIC_URL or --base)",
    read: readBuyerLink,
    // docs/protocol.md#buyer-links: built on `--base`, else on LICENCE_PUBLIC_URL.
    args: (action, runtime) => inputs(action.cle, action.base ?? runtime.publicBase(), { ttl: action.ttl }),
    alone: (action, result) =>
      isBuyerLink(result)
        ? {
            out: result.url,
            note: `buyer link of key ${action.cle.slice(-4)}, valid until ${result.expires}: give it to the key's buyer only, it opens the key's page (docs/protocol.md#buyer-links)`,
          }
        : undefined,
  }),
});

function isBuyerLink(value: unknown): value is { readonly url: string; readonly expires: string } {
  const link = value as { readonly url?: unknown; readonly expires?: unknown } | null;
  return typeof link?.url === 'string' && typeof link.expires === 'string';
}

export const KEY_OPERATIONS = {
  issueKey: issueKeyOperation,
  showKey: showKeyOperation,
  regenerateKey: regenerateKeyOperation,
  transferKey: transferKeyOperation,
  revokeKey: revokeKeyOperation,
  buyerLink: buyerLinkOperation,
};
