import { ADMIN_OPERATIONS, type AdminOperations } from '@licence/service';
import type { AdminAction } from './cli-args.js';
import { adminCommand } from './cli-commands.js';
import { StartupError } from './startup-error.js';

/**
 * A CLI admin command run through the service's own key administration (`createKeyAdmin`), the
 * very operations the admin HTTP API is a thin layer over (docs/protocol.md#administration): both
 * share every rule (the conflicts, the field checks, their messages) and cannot drift apart. The
 * command's declaration (the service's ADMIN_OPERATIONS) turns its typed values into the
 * operation's arguments; an `AdminError` (invalid, not found, conflict, store unavailable)
 * propagates to the caller. The answer is the admin API's JSON body (for a command whose HTTP
 * answer is an empty 204, such as `author revoke-token`, what was done).
 */
export async function runAdminAction(
  /** `createKeyAdmin`'s answer for `operations`: one method per operation, by its name. */
  admin: object,
  action: AdminAction,
  publicUrl?: string,
  operations: AdminOperations = ADMIN_OPERATIONS,
): Promise<unknown> {
  const found = adminCommand(action.name, operations);
  if (found === undefined) throw new StartupError(`${action.name}: no such command`);
  const publicBase = () => {
    // docs/protocol.md#buyer-links: the CLI has no request whose Host it could take.
    if (publicUrl !== undefined) return publicUrl;
    throw new StartupError(
      `${action.name}: no public URL to build the link on; set LICENCE_PUBLIC_URL (docs/protocol.md#buyer-links) or give --base <url>`,
    );
  };
  const args = found.command.args(action, { publicBase });
  const call = (admin as Readonly<Record<string, (...values: readonly unknown[]) => Promise<unknown>>>)[
    found.operation
  ];
  const result = await call?.(...args);
  return found.command.answer === undefined ? result : found.command.answer(action);
}
