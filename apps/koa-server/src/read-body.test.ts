import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BodyAbortedError, contentLength, readBody } from './read-body.js';

function source(chunks: readonly (string | Buffer)[], headers: Record<string, string> = {}) {
  return { headers, stream: Readable.from(chunks, { objectMode: false }) };
}

describe('readBody', () => {
  it('returns the bytes of a body in several chunks', async () => {
    const body = await readBody(source(['{"cle":', Buffer.from('"x"}')]), 100);
    expect(body).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(body ?? []).toString()).toBe('{"cle":"x"}');
  });

  it('returns an empty array for no body', async () => {
    expect(await readBody(source([]), 100)).toEqual(new Uint8Array(0));
  });

  it('accepts exactly the limit', async () => {
    const body = await readBody(source(['a'.repeat(4096), 'b'.repeat(4096)]), 8192);
    expect(body?.length).toBe(8192);
  });

  it('gives up at limit + 1 bytes and drains the rest', async () => {
    const stream = new PassThrough();
    const pending = readBody({ headers: {}, stream }, 8192);
    stream.write('a'.repeat(8192));
    stream.write('b');
    expect(await pending).toBeNull();
    // The rest is read and discarded: the stream flows to its end instead of stalling.
    stream.end('c'.repeat(100_000));
    await new Promise((resolve) => stream.once('end', resolve));
    expect(stream.readableEnded).toBe(true);
  });

  it('gives up before reading when Content-Length announces too much', async () => {
    const stream = new PassThrough();
    expect(await readBody({ headers: { 'content-length': '8193' }, stream }, 8192)).toBeNull();
  });

  it('does not trust a small Content-Length: it counts the bytes received', async () => {
    expect(await readBody(source(['x'.repeat(9000)], { 'content-length': '10' }), 8192)).toBeNull();
  });

  it('refuses a stream an earlier middleware already read, instead of waiting forever', async () => {
    const stream = Readable.from(['{}'], { objectMode: false });
    for await (const chunk of stream) expect(String(chunk)).toBe('{}');
    await expect(readBody({ headers: {}, stream }, 100)).rejects.toThrow(
      /mount licenceMiddleware before any body parser/,
    );
  });

  it('rejects with BodyAbortedError when the stream fails mid-body', async () => {
    const stream = new PassThrough();
    const pending = readBody({ headers: {}, stream }, 100);
    stream.write('{"cle"');
    stream.destroy(new Error('socket hang up'));
    await expect(pending).rejects.toBeInstanceOf(BodyAbortedError);
  });

  it('rejects when the stream closes before its end', async () => {
    const stream = new PassThrough();
    const pending = readBody({ headers: {}, stream }, 100);
    stream.write('{');
    stream.destroy();
    await expect(pending).rejects.toThrow('request body: connection closed before the end');
  });
});

describe('contentLength', () => {
  it('reads a plain decimal and ignores anything else', () => {
    expect(contentLength({ 'content-length': '42' })).toBe(42);
    expect(contentLength({})).toBeUndefined();
    expect(contentLength({ 'content-length': '-1' })).toBeUndefined();
    expect(contentLength({ 'content-length': '1e3' })).toBeUndefined();
  });
});
