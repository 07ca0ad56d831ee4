import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../webhooks/index.js';
import * as fields from './fields.js';
import type { CommandArguments, CommandMistake } from './operation.js';
import { command, inputs, mistake, operation, param } from './operation.js';
import { given } from './command-values.js';
import { addWebhook } from './add-webhook.js';
import { listWebhooks } from './list-webhooks.js';
import { removeWebhook } from './remove-webhook.js';
import { rotateWebhookSecret } from './rotate-webhook-secret.js';
import { retryWebhookDelivery, webhookDeliveries } from './webhook-deliveries.js';

/**
 * A shop's webhook endpoints, their secret and their delivery log (docs/protocol.md#webhooks), each
 * operation declared once (operation.ts). An author token manages its own endpoints.
 */

/** docs/protocol.md#webhooks: the shop verifies every delivery with it; no command shows it again. */
const SECRET_SHOWN_ONCE =
  'the secret is shown only this once; give it to the shop, which verifies every delivery with it (docs/protocol.md#webhooks)';

interface WebhookAddAction {
  readonly name: 'webhook add';
  readonly url: string;
  readonly events: readonly WebhookEventType[];
  readonly author?: string;
}

/**
 * `--events` is a comma-separated list of event types (docs/protocol.md#webhooks), each one known,
 * or it is a usage mistake; the URL's rules and the author's are the operation's, with its messages
 * (and LICENCE_WEBHOOK_ALLOW_PRIVATE, which it is handed).
 */
function readWebhookAdd(args: CommandArguments): WebhookAddAction | CommandMistake {
  const text = args.option('events');
  if (text === undefined) return mistake('webhook add: --events is required', true);
  const events: WebhookEventType[] = [];
  for (const entry of text.split(',').map((part) => part.trim())) {
    const type = WEBHOOK_EVENT_TYPES.find((candidate) => candidate === entry);
    if (type === undefined) {
      return mistake(
        `webhook add: --events must be a comma-separated list of ${WEBHOOK_EVENT_TYPES.join(', ')}, got "${entry}"`,
      );
    }
    events.push(type);
  }
  return { name: 'webhook add', url: args.positional(0), events, ...given('author', args.option('author')) };
}

/** A command whose one positional is the endpoint's id. */
function endpointCommand(
  name: string,
  extra: { readonly usageNote?: string; readonly helpNote?: string; readonly notice?: string } = {},
) {
  const { usageNote = '', ...notes } = extra;
  return command({
    usage: `${name} <id> [--json]${usageNote}`,
    help: `${name} <id>`,
    read: (args: CommandArguments) => ({ name, id: args.positional(0) }),
    args: (action) => inputs(action.id),
    ...notes,
  });
}

const addWebhookOperation = operation(addWebhook, {
  route: 'POST /admin/webhooks',
  summary: "A shop's endpoint and the events it receives; its secret, shown this once",
  scope: { operator: false, resource: 'webhook' },
  input: ({ body }) => inputs(fields.webhookInput(body)),
  command: command({
    usage: 'webhook add <url> --events <type,...> [--author <id>] [--json]  (the secret is printed this once)',
    help: 'webhook add <url> --events <type,...> [--author <id>]',
    helpNote: "a shop's endpoint; its secret, printed this once",
    read: readWebhookAdd,
    args: (action) => inputs({ url: action.url, events: action.events, author: action.author }),
    notice: SECRET_SHOWN_ONCE,
  }),
});

const listWebhooksOperation = operation(listWebhooks, {
  route: 'GET /admin/webhooks',
  summary: 'The endpoints the token reaches',
  scope: { operator: false, resource: 'principal' },
  input: () => inputs(),
  command: command({
    usage: 'webhook list [--json]',
    help: 'webhook list',
    read: () => ({ name: 'webhook list' }),
    args: () => inputs(),
  }),
});

const removeWebhookOperation = operation(removeWebhook, {
  route: 'DELETE /admin/webhooks/:id',
  summary: 'Remove an endpoint; its pending deliveries are dropped',
  scope: { operator: false, resource: 'webhook' },
  input: (parts) => inputs(param(parts, 'id')),
  command: command({
    usage: 'webhook remove <id> [--json]',
    help: 'webhook remove <id>',
    read: (args) => ({ name: 'webhook remove', id: args.positional(0) }),
    args: (action) => inputs(action.id),
    // The HTTP answer is an empty 204; the CLI says what it removed.
    answer: (action) => ({ id: action.id, removed: true }),
  }),
});

const rotateSecretOperation = operation(rotateWebhookSecret, {
  route: 'POST /admin/webhooks/:id/secret',
  status: 200,
  summary: 'A new secret, shown this once; the previous ones sign 24 hours more',
  scope: { operator: false, resource: 'webhook' },
  input: (parts) => inputs(param(parts, 'id')),
  command: endpointCommand('webhook rotate', {
    usageNote: '  (the new secret is printed this once; the previous ones sign 24 h more)',
    helpNote: 'a new secret, printed this once; the old one signs 24 h more',
    notice: SECRET_SHOWN_ONCE,
  }),
});

const deliveriesOperation = operation(webhookDeliveries, {
  route: 'GET /admin/webhooks/:id/deliveries',
  summary: "An endpoint's last 100 deliveries, newest first, with their attempts",
  scope: { operator: false, resource: 'webhook' },
  input: (parts) => inputs(param(parts, 'id')),
  command: endpointCommand('webhook deliveries', { helpNote: 'the last 100 deliveries and their attempts' }),
});

// 202: the delivery is queued again; the deliverer sends it on its next round.
const retryDeliveryOperation = operation(retryWebhookDelivery, {
  route: 'POST /admin/webhooks/:id/deliveries/:deliveryId/retry',
  status: 202,
  summary: 'Send a delivery again, now, whatever its status',
  scope: { operator: false, resource: 'webhook' },
  input: (parts) => inputs(param(parts, 'id'), param(parts, 'deliveryId')),
  command: command({
    usage: 'webhook retry <id> <deliveryId> [--json]',
    help: 'webhook retry <id> <deliveryId>',
    helpNote: 'send a delivery again, now',
    read: (args) => ({ name: 'webhook retry', id: args.positional(0), deliveryId: args.positional(1) }),
    args: (action) => inputs(action.id, action.deliveryId),
  }),
});

export const WEBHOOK_OPERATIONS = {
  addWebhook: addWebhookOperation,
  listWebhooks: listWebhooksOperation,
  removeWebhook: removeWebhookOperation,
  rotateWebhookSecret: rotateSecretOperation,
  webhookDeliveries: deliveriesOperation,
  retryWebhookDelivery: retryDeliveryOperation,
};
