import { describe, expect, it } from 'vitest';
import { listenError } from './listen-error.js';
import { StartupError } from './startup-error.js';

const failure = (code: string) => Object.assign(new Error(`listen ${code}`), { code });

describe('listenError (docs/protocol.md#configuration: one line naming the variable)', () => {
  it.each(['EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN', 'EAFNOSUPPORT'])('%s names HOST', (code) => {
    const error = listenError(failure(code), '8.8.8.8', 8080);
    expect(error).toBeInstanceOf(StartupError);
    expect(error instanceof Error ? error.message : '').toBe(`HOST: cannot listen on 8.8.8.8:8080 (${code})`);
  });
  it.each(['EADDRINUSE', 'EACCES'])('%s names PORT', (code) => {
    const error = listenError(failure(code), '::1', 80);
    expect(error instanceof StartupError ? error.message : '').toBe(`PORT: cannot listen on [::1]:80 (${code})`);
  });
  it('passes any other failure through unchanged', () => {
    const other = failure('EMFILE');
    expect(listenError(other, '127.0.0.1', 8080)).toBe(other);
    const plain = new Error('boom');
    expect(listenError(plain, '127.0.0.1', 8080)).toBe(plain);
  });
});
