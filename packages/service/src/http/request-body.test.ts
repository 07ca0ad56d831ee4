import { ValidationError } from '@licence/core';
import { describe, expect, it } from 'vitest';
import { HttpError } from './problem.js';
import {
  checkBodySize,
  checkContentEncoding,
  checkJsonContentType,
  field,
  isJsonContentType,
  MAX_BODY_BYTES,
  parseJsonObject,
} from './request-body.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const failure = (run: () => unknown): HttpError => {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('expected an HttpError');
};

describe('checkBodySize', () => {
  it('passes 8 KiB and refuses one byte more, or a body the adapter gave up on', () => {
    expect(checkBodySize(new Uint8Array(MAX_BODY_BYTES), MAX_BODY_BYTES).length).toBe(8192);
    expect(failure(() => checkBodySize(new Uint8Array(MAX_BODY_BYTES + 1), MAX_BODY_BYTES)).status).toBe(413);
    expect(failure(() => checkBodySize(null, MAX_BODY_BYTES)).status).toBe(413);
  });
});

describe('isJsonContentType', () => {
  it.each([
    'application/json',
    'Application/JSON',
    'application/json; charset=utf-8',
    'application/json;charset=UTF-8',
    'application/json; charset="utf-8"',
    'application/json ; charset=utf8',
    'application/json; foo=bar',
    // docs/protocol.md#request: any charset parameter is fine; the body is read as UTF-8 regardless
    // (RFC 8259 8.1).
    'application/json; charset=iso-8859-1',
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
  ])('accepts %j', (header) => {
    expect(isJsonContentType(header)).toBe(true);
  });

  it.each([
    undefined,
    '',
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/jsonx',
    'application/json-patch+json',
    'text/json',
    'multipart/form-data; boundary=x',
  ])('refuses %j', (header) => {
    expect(isJsonContentType(header)).toBe(false);
  });

  it('answers 415 through checkJsonContentType', () => {
    expect(failure(() => checkJsonContentType('text/plain')).status).toBe(415);
  });
});

describe('checkContentEncoding (RFC 9110 8.4, 12.5.3)', () => {
  it.each([undefined, '', ' ', 'identity', 'IDENTITY', 'identity, identity', ' , identity'])('takes %j', (header) => {
    expect(() => checkContentEncoding(header)).not.toThrow();
  });

  it.each(['gzip', 'x-gzip', 'deflate', 'br', 'compress', 'zstd', 'gzip, identity', 'identity;q=1', 'Gzip'])(
    'answers %j with 415 and Accept-Encoding: identity, never quoting the header',
    (header) => {
      const error = failure(() => checkContentEncoding(header));
      expect(error.status).toBe(415);
      expect(error.kind).toBe('unsupported-media-type');
      expect(error.headers).toEqual({ 'Accept-Encoding': 'identity' });
      expect(error.detail).toBe('Content-Encoding is not supported: send the body uncompressed');
    },
  );

  it('leaves the media-type 415 without Accept-Encoding (RFC 9110 12.5.3)', () => {
    expect(failure(() => checkJsonContentType('text/plain')).headers).toEqual({});
  });
});

describe('parseJsonObject', () => {
  it('parses an object', () => {
    expect(parseJsonObject(bytes('{"cle":"x","url":"y"}'))).toEqual({ cle: 'x', url: 'y' });
  });

  it('drops a UTF-8 byte order mark', () => {
    expect(parseJsonObject(bytes('\uFEFF{"a":1}'))).toEqual({ a: 1 });
  });

  it.each([
    ['', 'body: is empty; expected a JSON object'],
    ['  \n', 'body: is empty; expected a JSON object'],
    ['{', 'body: not valid JSON'],
    ["{'cle':1}", 'body: not valid JSON'],
    ['[1]', 'body: expected a JSON object, got array'],
    ['null', 'body: expected a JSON object, got null'],
    ['"text"', 'body: expected a JSON object, got string'],
    ['42', 'body: expected a JSON object, got number'],
  ])('refuses %j with %j', (text, message) => {
    const error = failure(() => parseJsonObject(bytes(text)));
    expect(error.status).toBe(400);
    expect(error.detail).toBe(message);
  });

  it('never quotes the body, which may hold a key', () => {
    const error = failure(() => parseJsonObject(bytes('{"cle":"ABCDE-FGHJK-MNPQR-STVWX-YZ012",')));
    expect(error.detail).toBe('body: not valid JSON');
    expect(error.cause).toBeUndefined();
  });

  it('refuses bytes that are not UTF-8', () => {
    expect(failure(() => parseJsonObject(new Uint8Array([0x7b, 0xff, 0x7d]))).detail).toBe('body: not valid UTF-8');
  });

  it('takes an empty body as undefined when allowed', () => {
    expect(parseJsonObject(new Uint8Array(0), true)).toBeUndefined();
  });

  it('survives deep nesting', () => {
    const deep = `{"a":${'['.repeat(4000)}${']'.repeat(4000)}}`;
    expect(() => parseJsonObject(bytes(deep))).not.toThrow();
  });
});

describe('field', () => {
  it('turns a ValidationError into a 400 with the same message', () => {
    const error = failure(() =>
      field(() => {
        throw new ValidationError('cle', 'cle: is empty');
      }),
    );
    expect(error.status).toBe(400);
    expect(error.detail).toBe('cle: is empty');
  });

  it('lets other errors through', () => {
    expect(() =>
      field(() => {
        throw new RangeError('bug');
      }),
    ).toThrow(RangeError);
  });
});
