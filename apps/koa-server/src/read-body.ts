import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';

/**
 * Reading a request body with a cap (docs/protocol.md#limits: at most 8 KiB on the public endpoint,
 * 413 beyond; the cap of each path is the service's `bodyLimitFor`).
 *
 * We never use a body parser that answers 400/413 itself: the service decides, because
 * docs/protocol.md#request fixes the ORDER of the checks (404, 405, 403, 429, then 413...). So the
 * reader only reports "too big" as `null` and the service answers at the right point.
 */

/** The client went away while sending its body: nobody is left to answer. */
export class BodyAbortedError extends Error {
  override readonly name = 'BodyAbortedError';
}

export interface BodySource {
  readonly headers: IncomingHttpHeaders;
  readonly stream: Readable;
}

/**
 * The body's bytes, or null as soon as more than `limit` bytes are announced (Content-Length) or
 * received. Reads at most `limit + 1` bytes into memory.
 *
 * When it gives up, the rest of the body is drained and discarded rather than left in the socket:
 * a client that is still sending could otherwise never read the 413 (it would see a reset), and a
 * keep-alive connection would stall. The caller should close the connection after answering
 * (`Connection: close`), so the drain ends with the response; Node's `requestTimeout` bounds it.
 */
export function readBody(
  source: BodySource,
  limit: number,
  onDrainError: (error: Error) => void = ignoreDrainError,
): Promise<Uint8Array | null> {
  const { stream } = source;
  if (stream.readableEnded || stream.readableDidRead) {
    // Mounted after a body parser in an existing app: the bytes are gone, and waiting for them
    // would hang the request. A programming error of the host app: a 500 and a log line that says so.
    return Promise.reject(
      new Error('request body already read by an earlier middleware: mount licenceMiddleware before any body parser'),
    );
  }
  const announced = contentLength(source.headers);
  if (announced !== undefined && announced > limit) {
    drain(stream, onDrainError);
    return Promise.resolve(null);
  }
  return new Promise((resolvePromise, rejectPromise) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const cleanup = (): void => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('aborted', onAborted);
      stream.off('close', onClose);
    };
    const finish = (value: Uint8Array | null): void => {
      if (settled) return;
      settled = true;
      cleanup();
      resolvePromise(value);
    };
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      cleanup();
      rejectPromise(error);
    };
    const onData = (chunk: Buffer | string): void => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > limit) {
        finish(null);
        drain(stream, onDrainError);
        return;
      }
      chunks.push(bytes);
    };
    const onEnd = (): void => {
      const body = Buffer.concat(chunks, size);
      // A plain Uint8Array view: the service's port speaks Uint8Array, not Buffer.
      finish(new Uint8Array(body.buffer, body.byteOffset, body.byteLength));
    };
    const onError = (error: Error): void => fail(new BodyAbortedError('request body: stream error', { cause: error }));
    const onAborted = (): void => fail(new BodyAbortedError('request body: client aborted'));
    const onClose = (): void => {
      // 'close' before 'end': the connection went away mid-body.
      if (!stream.readableEnded) fail(new BodyAbortedError('request body: connection closed before the end'));
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('aborted', onAborted);
    stream.on('close', onClose);
  });
}

/** Content-Length as a number, or undefined when absent or not a plain decimal (chunked bodies). */
export function contentLength(headers: IncomingHttpHeaders): number | undefined {
  const value = headers['content-length'];
  if (value === undefined || !/^[0-9]+$/.test(value)) return undefined;
  return Number(value);
}

/** Reads and discards the rest of a body (see readBody). */
function drain(stream: Readable, onError: (error: Error) => void): void {
  stream.on('data', discard);
  // A client that disconnects mid-drain is not a fault of ours, but the error must be handled
  // (an unhandled 'error' event would crash the process); the caller decides how to log it.
  stream.on('error', onError);
  stream.resume();
}

function discard(): void {
  // Deliberately nothing: bytes past the cap are not kept (docs/protocol.md#limits, 413).
}

function ignoreDrainError(): void {
  // The default for callers without a logger (tests); the server passes its logger's debug.
}
