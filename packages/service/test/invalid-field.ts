import { isAdminError } from '../src/admin/index.js';

/**
 * The message of the `INVALID_FIELD` error `run` throws (the admin API answers it with a 400,
 * admin/routes.ts); anything else, or nothing thrown, fails the test.
 */
export function invalidField(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isAdminError(error) && error.code === 'INVALID_FIELD' && error.errorClass === 'invalid') return error.message;
    throw error;
  }
  throw new Error('expected an INVALID_FIELD error');
}
