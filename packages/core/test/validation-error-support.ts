import { expect } from 'vitest';
import { ValidationError } from '../src/validation-error.js';

/** What `run` threw; fails the test when it throws nothing. */
export function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

/** The call throws a ValidationError (a TypeError) on `field` with exactly this message. */
export function expectValidationError(call: () => unknown, field: string, message: string): void {
  const error = thrown(call);
  expect(error).toBeInstanceOf(ValidationError);
  expect(error).toBeInstanceOf(TypeError);
  expect(error).toMatchObject({ field, message });
}
