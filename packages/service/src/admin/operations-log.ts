import * as fields from './fields.js';
import { command, inputs, operation, param } from './operation.js';
import { activity } from './activity.js';
import { installations } from './products.js';
import { purge } from './purge.js';

/**
 * What the request log says of a product, and its purge (docs/protocol.md#administration,
 * #activity, #privacy), each operation declared once (operation.ts).
 */

const installationsOperation = operation(installations, {
  route: 'GET /admin/products/:id/installations',
  summary: "A product's installations: each key's bound domains and when each was last seen",
  scope: { operator: false, resource: 'product' },
  input: (parts) => inputs(param(parts, 'id')),
  command: command({
    usage: 'installations <produit> [--json]',
    help: 'installations <produit>',
    read: (args) => ({ name: 'installations', produit: args.positional(0) }),
    args: (action) => inputs(action.produit),
  }),
});

export const LOG_OPERATIONS = {
  installations: installationsOperation,
  activity: operation(activity, {
    route: 'GET /admin/products/:id/activity',
    summary: "A product's verdicts per UTC day and outcome (docs/protocol.md#activity), ?days=1..366",
    scope: { operator: false, resource: 'product' },
    input: (parts) => inputs(param(parts, 'id'), fields.activityDays(parts.query)),
  }),
  purge: operation(purge, {
    route: 'POST /admin/purge',
    status: 200,
    summary:
      'Delete request-log entries (and their client IPs) older than 12 months, webhook events older than 30 days',
    scope: { operator: true, refused: 'purge the request log' },
    input: () => inputs(),
    command: command({
      usage: 'purge [--json]',
      help: 'purge',
      helpNote: 'delete request-log entries (and IPs) older than 12 months',
      read: () => ({ name: 'purge' }),
      args: () => inputs(),
    }),
  }),
};
