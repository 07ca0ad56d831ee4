import { describe, expect, it } from 'vitest';
import { asError, describeError, errorCode, errorMessage } from './caught-error.js';

describe('caught values', () => {
  it('errorMessage: an Error by its message, anything else as text', () => {
    expect(errorMessage(new TypeError('boom'))).toBe('boom');
    expect(errorMessage('plain')).toBe('plain');
    expect(errorMessage(42)).toBe('42');
  });

  it('asError keeps an Error and wraps anything else', () => {
    const error = new RangeError('out');
    expect(asError(error)).toBe(error);
    const wrapped = asError('text');
    expect(wrapped).toBeInstanceOf(Error);
    expect(wrapped.message).toBe('text');
  });

  it("errorCode reads a system error's string code only", () => {
    expect(errorCode(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBe('ENOENT');
    expect(errorCode(Object.assign(new Error('x'), { code: 7 }))).toBeUndefined();
    expect(errorCode(new Error('x'))).toBeUndefined();
    expect(errorCode(null)).toBeUndefined();
    expect(errorCode('ENOENT')).toBeUndefined();
  });

  it('describeError keeps name, message and the cause chain, and never a non-error value', () => {
    const error = Object.assign(new Error('x', { cause: new TypeError('y') }), { name: 'HttpError' });
    const described = describeError(error);
    expect(described).toMatchObject({ name: 'HttpError', message: 'x', cause: { name: 'TypeError', message: 'y' } });
    expect(describeError('ABCDE-FGHJK')).toEqual({ value: 'string' });
  });

  it('describeError keeps the stack and follows at most three causes', () => {
    let error: Error = new Error('0');
    for (let depth = 1; depth <= 5; depth++) error = new Error(String(depth), { cause: error });
    const described = describeError(error);
    expect(typeof described.stack).toBe('string');
    let level: unknown = described;
    const messages: unknown[] = [];
    while (typeof level === 'object' && level !== null && 'message' in level) {
      messages.push(level.message);
      level = 'cause' in level ? level.cause : undefined;
    }
    expect(messages).toEqual(['5', '4', '3', '2']);
  });
});
