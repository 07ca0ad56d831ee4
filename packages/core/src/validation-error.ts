/**
 * The one error family of core (CONTRIBUTING.md#code-style: one small error family).
 *
 * Core throws `ValidationError` for input of the wrong type or shape, always with an exact,
 * stable message that names the field, so an adapter can turn it into a 400 problem+json
 * without parsing text. It never carries the offending value when that value could be a
 * licence key: messages name the field and the rule, not the secret.
 */
export class ValidationError extends TypeError {
  override readonly name = 'ValidationError';

  constructor(
    /** The input field at fault (`cle`, `url`, `produit`, `nonce`, `donnees`...). */
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** True for errors raised by core's input checks. */
export function isValidationError(error: unknown): error is ValidationError {
  return error instanceof ValidationError;
}

/** How an unexpected input is named in messages: its type, never its value (it may be a key). */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Uint8Array) return `Uint8Array(${value.length})`;
  return typeof value;
}

/** A JSON-like object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
