import { typeName, ValidationError } from './validation-error.js';

/**
 * Field checkers for the records core parses (key-record.ts) and the numbers the verdict is handed
 * (decide-verdict.ts). Each message names the field and the rule (CONTRIBUTING.md#code-style:
 * `key.sites: expected a number, got string`) and shows a number received, never a string (but
 * see checkOneOf).
 */

/** An integer from `min` to `max`. */
export function checkInteger(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number') {
    throw new ValidationError(field, `${field}: expected a number, got ${typeName(value)}`);
  }
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ValidationError(field, `${field}: expected an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

/** null, or an integer from `min` to `max`. */
export function checkNullableInteger(field: string, value: unknown, min: number, max: number): number | null {
  if (value === null) return null;
  if (typeof value !== 'number') {
    throw new ValidationError(field, `${field}: expected null or a number, got ${typeName(value)}`);
  }
  return checkInteger(field, value, min, max);
}

/** An array of non-empty strings; each item is named by its index (`key.domains[1]`). */
export function checkNonEmptyStrings(field: string, value: unknown): readonly string[] {
  if (!Array.isArray(value)) {
    throw new ValidationError(field, `${field}: expected an array, got ${typeName(value)}`);
  }
  const items: unknown[] = value;
  return items.map((item, index) => checkNonEmptyString(`${field}[${index}]`, item));
}

function checkNonEmptyString(field: string, value: unknown): string {
  if (typeof value !== 'string') {
    throw new ValidationError(field, `${field}: expected a non-empty string, got ${typeName(value)}`);
  }
  if (value === '') {
    throw new ValidationError(field, `${field}: expected a non-empty string, got an empty string`);
  }
  return value;
}

/**
 * One of a closed set of names. The value received is quoted when it is a string: this checks the
 * `kind` and `status` of a key record, which holds no licence key.
 */
export function checkOneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  const found = allowed.find((candidate) => candidate === value);
  if (found === undefined) {
    const got = typeof value === 'string' ? JSON.stringify(value) : typeName(value);
    const expected = allowed.map((candidate) => `"${candidate}"`).join(', ');
    throw new ValidationError(field, `${field}: expected one of ${expected}, got ${got}`);
  }
  return found;
}
