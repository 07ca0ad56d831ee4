import { describe, expect, it } from 'vitest';
import { isRecord, isValidationError, typeName, ValidationError } from './validation-error.js';

describe('ValidationError', () => {
  it('is a TypeError that names its field', () => {
    const error = new ValidationError('url', 'url: is empty');
    expect(error).toBeInstanceOf(TypeError);
    expect(error.name).toBe('ValidationError');
    expect(error.field).toBe('url');
    expect(error.message).toBe('url: is empty');
    expect(isValidationError(error)).toBe(true);
    expect(isValidationError(new TypeError('url: is empty'))).toBe(false);
    expect(isValidationError('url: is empty')).toBe(false);
  });

  it('names types, never values', () => {
    expect([null, [], {}, 'SECRET', 1, true, undefined, new Uint8Array(3)].map(typeName)).toEqual([
      'null',
      'array',
      'object',
      'string',
      'number',
      'boolean',
      'undefined',
      'Uint8Array(3)',
    ]);
  });

  it('tells JSON-like objects from the rest', () => {
    expect([{}, Object.create(null), [], null, 'x'].map(isRecord)).toEqual([true, true, false, false, false]);
  });
});
