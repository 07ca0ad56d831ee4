/**
 * The CLI's output without `--json`: the admin API's JSON answer as indented `field: value`
 * lines (a YAML-like outline), so whatever the service answers is shown in its own field names.
 */
export function formatHuman(value: unknown, indent = ''): string {
  if (!isPlainObject(value)) return `${indent}${scalar(value)}\n`;
  let text = '';
  for (const [name, field] of Object.entries(value)) {
    if (Array.isArray(field)) {
      text +=
        field.length === 0 ? `${indent}${name}: (none)\n` : `${indent}${name}:\n${formatList(field, `${indent}  `)}`;
    } else if (isPlainObject(field)) {
      text += `${indent}${name}:\n${formatHuman(field, `${indent}  `)}`;
    } else {
      text += `${indent}${name}: ${scalar(field)}\n`;
    }
  }
  return text;
}

/** `- item` lines; an object item is its outline with the dash on its first line. */
function formatList(items: readonly unknown[], indent: string): string {
  let text = '';
  for (const item of items) {
    if (Array.isArray(item)) {
      text += `${indent}- ${JSON.stringify(item)}\n`;
    } else if (isPlainObject(item) && Object.keys(item).length > 0) {
      const block = formatHuman(item, `${indent}  `);
      text += `${indent}- ${block.slice(indent.length + 2)}`;
    } else {
      text += `${indent}- ${scalar(item)}\n`;
    }
  }
  return text;
}

function scalar(value: unknown): string {
  if (value === null) return '-';
  if (typeof value === 'string') return value === '' ? '""' : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? String(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
