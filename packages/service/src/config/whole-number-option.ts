import { ValidationError } from '@licence/core';

/**
 * A whole-number option of ServiceOptions or KeyAdminOptions (`buyerTransfersPer30Days`,
 * `webhooksPerAuthor`): an integer from `min` to `max`, `fallback` when absent. A bad value is a
 * programming error of the adapter, thrown with the option's name (the environment's own values
 * are checked before, with the variable's name: config-values.ts, buyer-config.ts).
 */
export function checkedWholeNumber(
  field: string,
  value: unknown,
  range: { readonly min: number; readonly max: number; readonly fallback: number },
): number {
  if (value === undefined) return range.fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < range.min || value > range.max) {
    throw new ValidationError(field, `${field}: expected an integer from ${range.min} to ${range.max}`);
  }
  return value;
}
