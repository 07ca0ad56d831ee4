import type { AdminOperation, AdminOperations } from './operation.js';
import { AUTHOR_OPERATIONS } from './operations-authors.js';
import { KEY_OPERATIONS } from './operations-keys.js';
import { LOG_OPERATIONS } from './operations-log.js';
import { PRODUCT_OPERATIONS } from './operations-products.js';
import { WEBHOOK_OPERATIONS } from './operations-webhooks.js';

/**
 * Every admin operation (docs/protocol.md#administration), in the order the CLI's help lists their
 * commands. The admin HTTP API, `createKeyAdmin`, the `licence` commands and the OpenAPI check read
 * this table (operation.ts says what a declaration holds).
 */
export const ADMIN_OPERATIONS = {
  ...PRODUCT_OPERATIONS,
  ...KEY_OPERATIONS,
  ...LOG_OPERATIONS,
  ...AUTHOR_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
} satisfies AdminOperations;

type Table = typeof ADMIN_OPERATIONS;

/** An operation's arguments and answer, by its name (the console reads its answers' types here). */
export type AdminArguments<Name extends keyof Table> =
  Table[Name] extends AdminOperation<infer Args, unknown> ? Args : never;
export type AdminOutput<Name extends keyof Table> = Table[Name] extends { run(...args: infer _Args): infer Answer }
  ? Awaited<Answer>
  : never;

/**
 * Key administration without HTTP: one method per operation of the table, its arguments typed
 * (key-admin.ts makes it for a principal). Each throws an `AdminError` (errors.ts) when it
 * refuses. Keys are taken in any spelling (docs/protocol.md#key-normalisation).
 */
export type KeyAdmin = {
  readonly [Name in keyof Table]: (...args: AdminArguments<Name>) => Promise<AdminOutput<Name>>;
};
