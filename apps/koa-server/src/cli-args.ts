import { parseArgs } from 'node:util';
import { errorMessage, KEY_KINDS, type KeyKind } from '@licence/core';
import { normalisePublicUrl, parseDateTime, publicUrlFault, WEBHOOK_EVENT_TYPES } from '@licence/service';
import type { WebhookEventType } from '@licence/service';
import { assertNever } from './assert-never.js';
import {
  type CommandName,
  type CommandSpec,
  commandSpec,
  groupUsage,
  isCommandName,
  isGroup,
  USAGE,
} from './cli-commands.js';
import { unknownCommandMessage, unknownOptionMessage } from './cli-suggestions.js';
import { readKeyArgument } from './key-argument.js';

/**
 * The `licence` command line (docs/protocol.md#administration), parsed with node:util `parseArgs`.
 * Pure: argv in, a command (or help text, or one usage error line) out. Admin actions carry typed
 * values (a number of sites, a trial end in seconds, a normalised key), as key administration takes
 * them.
 */

export type AdminAction =
  | {
      readonly name: 'product add';
      readonly id: string;
      readonly author: string;
      readonly productName: string;
      /** docs/protocol.md#staging-hosts: the patterns of `--staging`; absent when not given. */
      readonly staging?: readonly string[];
    }
  | { readonly name: 'product staging'; readonly id: string; readonly staging: readonly string[] }
  | {
      readonly name: 'key issue';
      readonly produit: string;
      readonly kind: KeyKind;
      readonly sites?: number;
      /** The trial's end, in whole seconds since the epoch. */
      readonly expire?: number;
    }
  | { readonly name: 'key show'; readonly cle: string }
  | { readonly name: 'key regenerate'; readonly cle: string }
  | { readonly name: 'key transfer'; readonly cle: string; readonly from?: string; readonly to?: string }
  | { readonly name: 'key revoke'; readonly cle: string; readonly reason?: string }
  | {
      readonly name: 'key buyer-link';
      readonly cle: string;
      /** docs/protocol.md#buyer-links: seconds; absent, the service's default (a day). */
      readonly ttl?: number;
      /** `--base`: the public URL to build the link on, normalised; absent, LICENCE_PUBLIC_URL's. */
      readonly base?: string;
    }
  | { readonly name: 'installations'; readonly produit: string }
  | { readonly name: 'purge' }
  | { readonly name: 'author add'; readonly id: string; readonly authorName: string }
  | { readonly name: 'author token'; readonly id: string; readonly label?: string }
  | { readonly name: 'author tokens'; readonly id: string }
  | { readonly name: 'author revoke-token'; readonly id: string; readonly tokenId: string }
  | {
      readonly name: 'webhook add';
      readonly url: string;
      readonly events: readonly WebhookEventType[];
      readonly author?: string;
    }
  | { readonly name: 'webhook list' }
  | { readonly name: 'webhook remove' | 'webhook rotate' | 'webhook deliveries'; readonly id: string }
  | { readonly name: 'webhook retry'; readonly id: string; readonly deliveryId: string };

export type CliCommand =
  | { readonly kind: 'serve' }
  | { readonly kind: 'keygen'; readonly out?: string; readonly printSeed: boolean; readonly json: boolean }
  | { readonly kind: 'token'; readonly json: boolean }
  | { readonly kind: 'admin'; readonly action: AdminAction; readonly json: boolean }
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'usage'; readonly message: string };

/** One command's arguments, read against its spec. */
interface Args {
  readonly kind: 'args';
  readonly name: CommandName;
  readonly spec: CommandSpec;
  readonly json: boolean;
  /** A string option, or undefined when absent. */
  option(name: string): string | undefined;
  flag(name: string): boolean;
  positional(index: number): string;
  /** The positionals after the spec's fixed ones (`rest`); [] when none. */
  rest(): readonly string[];
}

export function parseCliArgs(argv: readonly string[]): CliCommand {
  const [first, second] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    return { kind: 'help', text: USAGE };
  }
  const grouped = isGroup(first);
  if (grouped && (second === undefined || second === '--help' || second === '-h')) {
    return { kind: 'help', text: groupUsage(first) };
  }
  const name = grouped ? `${first} ${second}` : first;
  if (!isCommandName(name)) return usage(unknownCommandMessage(first, second));
  const args = readArgs(name, argv.slice(grouped ? 2 : 1));
  return args.kind === 'args' ? dispatch(name, args) : args;
}

/** Every command has its case: a command added to the table without one does not compile. */
function dispatch(name: CommandName, args: Args): CliCommand {
  switch (name) {
    case 'serve':
      return { kind: 'serve' };
    case 'keygen':
      return keygen(args);
    case 'token':
      return { kind: 'token', json: args.json };
    case 'product add':
      return productAdd(args);
    case 'product staging':
      return admin({ name, id: args.positional(0), staging: args.rest() }, args.json);
    case 'key issue':
      return keyIssue(args);
    case 'key show':
    case 'key regenerate':
      return withKey(args, (cle) => ({ name, cle }));
    case 'key transfer':
      return keyTransfer(args);
    case 'key revoke':
      return keyRevoke(args);
    case 'key buyer-link':
      return keyBuyerLink(args);
    case 'installations':
      return admin({ name, produit: args.positional(0) }, args.json);
    case 'purge':
      return admin({ name }, args.json);
    case 'author add':
      return authorAdd(args);
    case 'author token':
      return authorToken(args);
    case 'author tokens':
      return admin({ name, id: args.positional(0) }, args.json);
    case 'author revoke-token':
      return admin({ name, id: args.positional(0), tokenId: args.positional(1) }, args.json);
    case 'webhook add':
      return webhookAdd(args);
    case 'webhook list':
      return admin({ name }, args.json);
    case 'webhook remove':
    case 'webhook rotate':
    case 'webhook deliveries':
      return admin({ name, id: args.positional(0) }, args.json);
    case 'webhook retry':
      return admin({ name, id: args.positional(0), deliveryId: args.positional(1) }, args.json);
    default:
      return assertNever(name);
  }
}

/** The options and positionals of `name`, or the usage error or help they amount to. */
function readArgs(name: CommandName, rest: readonly string[]): Args | CliCommand {
  const spec = commandSpec(name);
  // No option is declared `multiple`, so no value is ever an array here; the type allows it.
  let values: Readonly<Record<string, string | boolean | readonly (string | boolean)[] | undefined>>;
  let positionals: string[];
  try {
    const parsed = parseArgs({ args: [...rest], options: spec.options, allowPositionals: true, strict: true });
    values = parsed.values;
    positionals = parsed.positionals;
  } catch (error) {
    // parseArgs' messages are long; their first sentence names the option. An unknown option
    // names the nearest declared one (cli-suggestions.ts).
    const text = errorMessage(error);
    const unknown = unknownOptionMessage(name, spec, text);
    if (unknown !== undefined) return usage(unknown);
    const message = text.split('. ')[0] ?? text;
    return usage(`${name}: ${message} (usage: ${spec.usage})`);
  }
  if (values.help === true) return { kind: 'help', text: `Usage: ${spec.usage}\n` };
  const fixed = spec.positionals.length;
  if (spec.rest === undefined ? positionals.length !== fixed : positionals.length < fixed) {
    const names = spec.positionals.map((n) => `<${n}>`).join(' ');
    const expected = fixed === 0 ? 'no argument' : spec.rest === undefined ? names : `${names} [${spec.rest} ...]`;
    return usage(`${name}: expected ${expected}, got ${positionals.length} (usage: ${spec.usage})`);
  }
  return {
    kind: 'args',
    name,
    spec,
    json: values.json === true,
    option: (option) => {
      const value = values[option];
      return typeof value === 'string' ? value : undefined;
    },
    flag: (option) => values[option] === true,
    positional: (index) => positionals[index] ?? '',
    rest: () => positionals.slice(fixed),
  };
}

function keygen(args: Args): CliCommand {
  const out = args.option('out');
  const printSeed = args.flag('print-seed');
  if (out === undefined && !printSeed) {
    return usage('keygen: give --out FILE to write a new signing key (mode 0600), or --print-seed to print it');
  }
  return { kind: 'keygen', ...(out === undefined ? {} : { out }), printSeed, json: args.json };
}

/**
 * `--staging` is a comma-separated list of host patterns (docs/protocol.md#staging-hosts), split
 * and trimmed here as LICENCE_STAGING_HOSTS is (a blank list is none); each pattern's rule, an
 * empty entry included, is key administration's, with its messages.
 */
function productAdd(args: Args): CliCommand {
  const author = args.option('author');
  const productName = args.option('name');
  if (author === undefined || productName === undefined) {
    return usage(`product add: --author and --name are required (usage: ${args.spec.usage})`);
  }
  const stagingText = args.option('staging');
  const staging =
    stagingText === undefined
      ? undefined
      : stagingText.trim() === ''
        ? []
        : stagingText.split(',').map((part) => part.trim());
  const action: AdminAction = {
    name: 'product add',
    id: args.positional(0),
    author,
    productName,
    ...(staging === undefined ? {} : { staging }),
  };
  return admin(action, args.json);
}

function authorAdd(args: Args): CliCommand {
  const authorName = args.option('name');
  if (authorName === undefined) return usage(`author add: --name is required (usage: ${args.spec.usage})`);
  return admin({ name: 'author add', id: args.positional(0), authorName }, args.json);
}

function authorToken(args: Args): CliCommand {
  const label = args.option('label');
  return admin({ name: 'author token', id: args.positional(0), ...(label === undefined ? {} : { label }) }, args.json);
}

/**
 * `--events` is a comma-separated list of event types (docs/protocol.md#webhooks), each one known,
 * or it is a usage error; the URL's rules and the author's are key administration's, with its
 * messages (and LICENCE_WEBHOOK_ALLOW_PRIVATE, which it is handed).
 */
function webhookAdd(args: Args): CliCommand {
  const text = args.option('events');
  if (text === undefined) return usage(`webhook add: --events is required (usage: ${args.spec.usage})`);
  const events: WebhookEventType[] = [];
  for (const entry of text.split(',').map((part) => part.trim())) {
    const type = WEBHOOK_EVENT_TYPES.find((candidate) => candidate === entry);
    if (type === undefined) {
      return usage(
        `webhook add: --events must be a comma-separated list of ${WEBHOOK_EVENT_TYPES.join(', ')}, got "${entry}"`,
      );
    }
    events.push(type);
  }
  const author = args.option('author');
  const action: AdminAction = {
    name: 'webhook add',
    url: args.positional(0),
    events,
    ...(author === undefined ? {} : { author }),
  };
  return admin(action, args.json);
}

/**
 * `--kind` is one of the kinds, `--sites` a whole number and `--expire` an RFC 3339 date-time with a
 * zone (docs/protocol.md#administration), or it is a usage error; so is an option the kind does not
 * take or lacks (`optionsOfKind`). The ranges are key administration's, with its messages.
 */
function keyIssue(args: Args): CliCommand {
  const produit = productOption(args);
  if (typeof produit !== 'string') return produit;
  const kind = args.option('kind');
  const keyKind = KEY_KINDS.find((candidate) => candidate === kind);
  if (keyKind === undefined) {
    return usage(
      `key issue: --kind must be one of ${KEY_KINDS.join(', ')}${kind === undefined ? '' : `, got "${kind}"`}`,
    );
  }
  const sitesText = args.option('sites');
  if (sitesText !== undefined && !/^[0-9]{1,6}$/.test(sitesText)) {
    return usage(`key issue: --sites must be a whole number, got "${sitesText}"`);
  }
  const expireText = args.option('expire');
  const expire = expireText === undefined ? undefined : parseDateTime(expireText);
  if (expire === null) {
    return usage(
      `key issue: --expire must be an ISO 8601 date-time with a time zone, such as 2026-12-31T23:59:59Z, got "${expireText}"`,
    );
  }
  const mismatch = optionsOfKind(keyKind, sitesText !== undefined, expireText !== undefined);
  if (mismatch !== undefined) return usage(`key issue: ${mismatch} (usage: ${args.spec.usage})`);
  const action: AdminAction = {
    name: 'key issue',
    produit,
    kind: keyKind,
    ...(sitesText === undefined ? {} : { sites: Number(sitesText) }),
    ...(expire === undefined ? {} : { expire }),
  };
  return admin(action, args.json);
}

/**
 * `--produit`, or its English alias `--product` (docs/protocol.md#the-licence-cli: `--produit` is the
 * wire field's name, which scripts rely on); one of them is required, and both only when they agree.
 */
function productOption(args: Args): string | CliCommand {
  const produit = args.option('produit');
  const product = args.option('product');
  if (produit !== undefined && product !== undefined && produit !== product) {
    return usage('key issue: --product is another name for --produit; give one of them');
  }
  const given = produit ?? product;
  return given ?? usage(`key issue: --produit (or --product) is required (usage: ${args.spec.usage})`);
}

/**
 * Which of `--sites` and `--expire` a kind takes (docs/protocol.md#administration): a trial needs its
 * end, only a trial has one, a dev key binds no domain. Key administration keeps the same rules for
 * the admin API (packages/service key-admin-rules.ts, `sites` and `expireAllowed`); the CLI says
 * them first so that a wrong combination is a usage mistake (exit 2), as a malformed value is.
 */
function optionsOfKind(kind: KeyKind, sites: boolean, expire: boolean): string | undefined {
  if (kind === 'trial' && !expire)
    return "--kind trial needs --expire, the trial's end (ISO 8601, such as 2026-12-31T23:59:59Z)";
  if (kind !== 'trial' && expire) return `--expire is for --kind trial only; leave it out for a ${kind} key`;
  if (kind === 'dev' && sites) return 'a dev key binds no domain; leave --sites out';
  return undefined;
}

function keyTransfer(args: Args): CliCommand {
  const from = args.option('from');
  const to = args.option('to');
  return withKey(args, (cle) => ({
    name: 'key transfer',
    cle,
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
  }));
}

/**
 * `--ttl` is a whole number of seconds and `--base` a public URL (the rule of LICENCE_PUBLIC_URL), or
 * it is a usage error; the ttl's range is key administration's, with its message.
 */
function keyBuyerLink(args: Args): CliCommand {
  const ttlText = args.option('ttl');
  if (ttlText !== undefined && !/^[0-9]{1,9}$/.test(ttlText)) {
    return usage(`key buyer-link: --ttl must be a whole number of seconds, got "${ttlText}"`);
  }
  const base = args.option('base');
  const fault = base === undefined ? null : publicUrlFault(base);
  if (base !== undefined && fault !== null) return usage(`key buyer-link: --base ${fault}`);
  return withKey(args, (cle) => ({
    name: 'key buyer-link',
    cle,
    ...(ttlText === undefined ? {} : { ttl: Number(ttlText) }),
    ...(base === undefined ? {} : { base: normalisePublicUrl(base) }),
  }));
}

function keyRevoke(args: Args): CliCommand {
  const reason = args.option('reason');
  return withKey(args, (cle) => ({ name: 'key revoke', cle, ...(reason === undefined ? {} : { reason }) }));
}

/**
 * The key as the service will read it (docs/protocol.md#key-normalisation), given to `action`; an
 * argument that cannot be a key (a hint, a word) is a usage error that never echoes a key
 * (key-argument.ts).
 */
function withKey(args: Args, action: (cle: string) => AdminAction): CliCommand {
  const key = readKeyArgument(args.name, args.positional(0));
  return key.ok ? admin(action(key.cle), args.json) : usage(key.message);
}

function usage(message: string): CliCommand {
  return { kind: 'usage', message };
}

function admin(action: AdminAction, json: boolean): CliCommand {
  return { kind: 'admin', action, json };
}
