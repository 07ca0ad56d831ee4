import * as fields from './fields.js';
import type { CommandArguments, CommandMistake } from './operation.js';
import { command, inputs, mistake, operation, param } from './operation.js';
import { givenOptions } from './command-values.js';
import { listProducts } from './list-products.js';
import { addProduct, updateProduct } from './products.js';

/**
 * The products' operations (docs/protocol.md#administration, #staging-hosts): their
 * routes, scopes and commands, each declared once (operation.ts).
 */

interface ProductAddAction {
  readonly name: 'product add';
  readonly id: string;
  readonly author: string;
  readonly productName: string;
  /** docs/protocol.md#staging-hosts: the patterns of `--staging`; absent when not given. */
  readonly staging?: readonly string[];
}

/**
 * `--staging` is a comma-separated list of host patterns (docs/protocol.md#staging-hosts), split
 * and trimmed as LICENCE_STAGING_HOSTS is (a blank list is none); each pattern's rule, an empty
 * entry included, is key administration's, with its messages.
 */
function readProductAdd(args: CommandArguments): ProductAddAction | CommandMistake {
  const { author, name } = givenOptions(args, ['author', 'name']);
  if (author === undefined || name === undefined) return mistake('product add: --author and --name are required', true);
  const text = args.option('staging');
  const staging = text === undefined ? undefined : text.trim() === '' ? [] : text.split(',').map((part) => part.trim());
  return {
    name: 'product add',
    id: args.positional(0),
    author,
    productName: name,
    ...(staging === undefined ? {} : { staging }),
  };
}

const addProductOperation = operation(addProduct, {
  route: 'POST /admin/products',
  summary: 'Add a product (its author, its name, its staging host patterns)',
  scope: { operator: false, resource: 'product' },
  input: ({ body }) => inputs(fields.productInput(body)),
  command: command({
    usage: 'product add <id> --author <author> --name <name> [--staging <pattern,...>] [--json]',
    help: 'product add <id> --author <a> --name <n> [--staging <pattern,...>]',
    read: readProductAdd,
    args: (action) =>
      inputs({ id: action.id, author: action.author, name: action.productName, staging: action.staging }),
  }),
});

const updateProductOperation = operation(updateProduct, {
  route: 'PATCH /admin/products/:id',
  summary: 'Rename a product or set its staging host patterns (docs/protocol.md#staging-hosts)',
  scope: { operator: false, resource: 'product' },
  input: (parts) => inputs(param(parts, 'id'), fields.productChangeInput(parts.body)),
  command: command({
    usage: 'product staging <id> [pattern ...] [--json]  (the whole list; no pattern clears it)',
    help: 'product staging <id> [pattern ...]',
    helpNote: "set the product's staging host patterns; none clears them",
    read: (args) => ({ name: 'product staging', id: args.positional(0), staging: args.rest() }),
    args: (action) => inputs(action.id, { staging: action.staging }),
  }),
});

export const PRODUCT_OPERATIONS = {
  addProduct: addProductOperation,
  updateProduct: updateProductOperation,
  listProducts: operation(listProducts, {
    route: 'GET /admin/products',
    summary: 'The products the token reaches, with their installation counts',
    scope: { operator: false, resource: 'principal' },
    input: () => inputs(),
  }),
};
