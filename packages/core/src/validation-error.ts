/**
 * The one error family of core (STYLE.md: "a small error family in one place").
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
