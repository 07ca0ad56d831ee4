import { describe, expect, it } from 'vitest';
import { isClientGone } from './client-gone.js';
import { BodyAbortedError } from './read-body.js';

describe('isClientGone', () => {
  it.each(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_STREAM_DESTROYED'])(
    'a %s is a client that left',
    (code) => {
      expect(isClientGone(Object.assign(new Error(`write ${code}`), { code }))).toBe(true);
    },
  );
  it('a body cut short is a client that left', () => {
    expect(isClientGone(new BodyAbortedError('request body: client aborted'))).toBe(true);
  });
  it('anything else is a fault', () => {
    expect(isClientGone(new Error('boom'))).toBe(false);
    expect(isClientGone(Object.assign(new Error('disk'), { code: 'EIO' }))).toBe(false);
    expect(isClientGone('ECONNRESET')).toBe(false);
  });
});
