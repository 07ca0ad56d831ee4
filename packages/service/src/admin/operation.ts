import type { AdminContext } from './scope.js';

/**
 * One admin operation, declared once (CONTRIBUTING.md#architecture, "Declare once, derive the
 * rest"): its name, its route, who may run it, its input read from a request, the call, and the
 * `licence` command that stands for it. The admin HTTP API (routes.ts), `createKeyAdmin`
 * (key-admin.ts), the CLI (apps/koa-server cli-args.ts) and the OpenAPI check all read the table of
 * operations.ts; a new operation is one declaration there plus its implementation and each
 * store's method.
 */

export type AdminMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** What a request gives an operation's input (routes.ts reads them once, in its order). */
export interface AdminInputParts {
  /** Path parameters, percent-decoded. */
  readonly params: Readonly<Record<string, string>>;
  /** The parsed JSON body (POST and PATCH only); undefined when none was sent. */
  readonly body: unknown;
  /** The raw query string, without `?`. */
  readonly query: string | undefined;
  /**
   * Where buyers reach the service (docs/protocol.md#buyer-links: LICENCE_PUBLIC_URL, else this
   * request's scheme and Host), without a trailing `/`; a 400 when neither says.
   */
  readonly publicBase: () => string;
}

/**
 * Who may run it (docs/protocol.md#authors). `operator`: the operator alone; an author token is
 * refused with OPERATOR_ONLY, whose message says what it may not do (`refused`). Otherwise the
 * operator, or an author token on its own `resource` (another author's answers as a missing one):
 * the operation's own reach (scope.ts) decides, since it must read the resource first.
 */
export type AdminScope =
  | { readonly operator: true; readonly refused: string }
  | { readonly operator: false; readonly resource: 'product' | 'key' | 'author' | 'webhook' | 'principal' };

/** A `licence` command's arguments, as node:util parseArgs read them against its declaration. */
export interface CommandArguments {
  /** A string option, or undefined when absent. */
  option(name: string): string | undefined;
  positional(index: number): string;
  /** The positionals after the fixed ones (`rest`); [] when none. */
  rest(): readonly string[];
}

/** What a command needs from the CLI's configuration (the admin API has its request). */
export interface CommandRuntime {
  /** LICENCE_PUBLIC_URL, normalised; throws the CLI's one line when it is not set. */
  readonly publicBase: () => string;
}

/**
 * A usage mistake (exit 2): one line, followed by ` (usage: <the command's usage>)` when
 * `showUsage`.
 */
export interface CommandMistake {
  readonly mistake: string;
  readonly showUsage: boolean;
}

export const mistake = (message: string, showUsage = false): CommandMistake => ({ mistake: message, showUsage });

export function isMistake(value: unknown): value is CommandMistake {
  return typeof value === 'object' && value !== null && 'mistake' in value;
}

/** A parsed command: its name and its typed values (what `args` turns into the operation's input). */
export interface CommandAction {
  readonly name: string;
}

/**
 * The `licence` command of an operation (docs/protocol.md#the-licence-cli). `read` turns the
 * arguments into typed values, or into a usage mistake (exit 2); the operation's rules
 * and their messages stay the operation's.
 */
export interface AdminCommand<
  Args extends readonly unknown[] = readonly unknown[],
  Action extends CommandAction = CommandAction,
> {
  /** `key issue`, `purge`... */
  readonly name: string;
  /** The usage line after the program's name, as a usage mistake quotes it. */
  readonly usage: string;
  /** The `--help` line after the program's name, and the note beside or under it. */
  readonly help: string;
  readonly helpNote?: string;
  readonly positionals: readonly string[];
  /** The name of the any-number positionals that may follow `positionals` (`pattern ...`). */
  readonly rest?: string;
  /** Its string options besides `--json` and `--help`. */
  readonly options?: readonly string[];
  read(args: CommandArguments): Action | CommandMistake;
  /** The typed values as the call's arguments. */
  args(action: Action, runtime: CommandRuntime): Args;
  /** What it prints when the HTTP answer is empty (a 204): what was done. */
  answer?(action: Action): unknown;
  /** A secret shown once: printed alone on stdout (`$(...)` takes it whole), with a note on stderr. */
  alone?(action: Action, result: unknown): { readonly out: string; readonly note: string } | undefined;
  /** A line on stderr after the answer (a key or a secret shown only this once). */
  readonly notice?: string;
}

export interface AdminOperation<Args extends readonly unknown[] = readonly unknown[], Output = unknown> {
  readonly method: AdminMethod;
  /** `/admin/...`; `:name` captures one segment. */
  readonly path: string;
  /** The success status; 204 answers no body. */
  readonly status: 200 | 201 | 202 | 204;
  /** One line for the API document and the help. */
  readonly summary: string;
  readonly scope: AdminScope;
  /** It signs with the service's key (a buyer link): the CLI opens the signing key for it alone. */
  readonly signs?: boolean;
  /** The request read into the call's arguments: exact messages, first fault first (fields.ts). */
  input(parts: AdminInputParts): Args;
  run(context: AdminContext, ...args: Args): Promise<Output>;
  readonly command?: AdminCommand<Args>;
}

/**
 * An operation of any input and output, as the table holds them. The method syntax of `input`,
 * `run` and the command's functions makes them bivariant, so each declaration fits.
 */
// biome-ignore lint/suspicious/noExplicitAny: the table holds operations of every input and output.
export type AnyAdminOperation = AdminOperation<any, any>;

/** The table: operation names (the console's method names, the OpenAPI operationIds) to declarations. */
export type AdminOperations = Readonly<Record<string, AnyAdminOperation>>;

/**
 * Declares an operation: its implementation and the rest, checking that its input and its
 * command's values become the implementation's arguments. `Args` comes from the implementation
 * alone, so that an optional argument stays optional in `createKeyAdmin`'s methods.
 */
export function operation<Args extends readonly unknown[], Output>(
  run: (context: AdminContext, ...args: Args) => Promise<Output>,
  declaration: Omit<AdminOperation<NoInfer<Args>, NoInfer<Output>>, 'run' | 'method' | 'path' | 'status'> & {
    /** The method and the path, as a router writes them: `POST /admin/keys/:cle/revoke`. */
    readonly route: `${AdminMethod} /admin${string}`;
    /** Only where it is not its method's (SUCCESS_STATUS). */
    readonly status?: AdminOperation['status'];
  },
): AdminOperation<Args, Output> {
  const { route, status, ...rest } = declaration;
  const [method, path] = route.split(' ') as [AdminMethod, string];
  return { ...rest, method, path, status: status ?? SUCCESS_STATUS[method], run };
}

/**
 * docs/protocol.md#administration: a read or a change answers 200, a creation 201, a removal 204
 * and no body; an operation says its own only when it differs (a revocation is a POST that
 * answers 200, a retry is queued: 202).
 */
const SUCCESS_STATUS: Readonly<Record<AdminMethod, AdminOperation['status']>> = {
  GET: 200,
  PATCH: 200,
  POST: 201,
  DELETE: 204,
};

/** What a usage line declares: the command's words, its positionals, its rest and its options. */
type Syntax = 'name' | 'positionals' | 'rest' | 'options';

/**
 * A command, its typed values (`Action`) read from what `read` returns. Its usage line is its
 * syntax (commandSyntax): the name, the positionals and the options are read from it, so that
 * they are written once.
 */
export function command<Action extends CommandAction, Args extends readonly unknown[]>(
  declaration: Omit<AdminCommand<Args, Action>, Syntax>,
): AdminCommand<Args, Action> {
  return { ...commandSyntax(declaration.usage), ...declaration };
}

/**
 * `product staging <id> [pattern ...] [--json]  (a note)`: the words up to the first argument are
 * the name, the `<x>` right after them the positionals, `[x ...]` the rest, and every `--x` but
 * `--json` (the note's included) a string option.
 */
export function commandSyntax(usage: string): Pick<AdminCommand, Syntax> {
  const [syntax = ''] = usage.split('  (');
  const words = syntax.split(' ');
  const nameLength = words.findIndex((word) => !/^[a-z][a-z-]*$/.test(word));
  const name = words.slice(0, nameLength === -1 ? words.length : nameLength);
  const after = words.slice(name.length);
  const positionalCount = after.findIndex((word) => !/^<[A-Za-z]+>$/.test(word));
  const positionals = after.slice(0, positionalCount === -1 ? after.length : positionalCount);
  const rest = /\[([a-z]+) \.\.\.\]/.exec(syntax)?.[1];
  const options = [...new Set([...usage.matchAll(/--([a-z-]+)/g)].map((match) => match[1] ?? ''))];
  return {
    name: name.join(' '),
    positionals: positionals.map((word) => word.slice(1, -1)),
    ...(rest === undefined ? {} : { rest }),
    options: options.filter((option) => option !== 'json'),
  };
}

/** The call's arguments as a tuple, each at its place. */
export const inputs = <Values extends readonly unknown[]>(...values: Values): Values => values;

/** A path parameter (routes.ts matched it: never empty). */
export const param = (parts: AdminInputParts, name: string): string => parts.params[name] ?? '';
