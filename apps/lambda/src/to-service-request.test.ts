import { readExternalJson } from '@licence/vectors';
import { describe, expect, it } from 'vitest';
import { classifyEvent } from './lambda-event.js';
import type { ClassifiedEvent } from './lambda-event.js';
import {
  clientAddress,
  requestBody,
  requestHeaders,
  requestPath,
  requestQuery,
  requestScheme,
  toServiceRequest,
} from './to-service-request.js';

function classified(event: unknown): ClassifiedEvent {
  const result = classifyEvent(event);
  if (result === null) throw new Error(`not an HTTP event: ${JSON.stringify(event)}`);
  return result;
}
const sample = (file: string): Record<string, unknown> =>
  readExternalJson<Record<string, unknown>>(`aws-lambda-events/${file}`);
function contextOf(event: Record<string, unknown>): Record<string, unknown> {
  const context = event.requestContext;
  if (typeof context !== 'object' || context === null || Array.isArray(context)) throw new Error('no requestContext');
  return { ...context };
}

describe('toServiceRequest on the AWS samples', () => {
  it('REST v1: method, path, lower-case headers from multiValueHeaders, the identity source IP, the text body', () => {
    const request = toServiceRequest(classified(sample('apigw-request.json')));
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/hello/world');
    expect(request.ip).toBe('192.168.196.186');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toBe('PostmanRuntime/2.4.5');
    expect(request.headers['cloudfront-viewer-country']).toBe('US');
    expect(Object.keys(request.headers).every((name) => name === name.toLowerCase())).toBe(true);
    // AWS appended nothing equal to the source IP here (the sample is anonymised): the header stays whole.
    expect(request.headers['x-forwarded-for']).toBe('54.240.196.186, 54.182.214.83');
    expect(Buffer.from(request.body ?? new Uint8Array()).toString('utf8')).toBe('{\r\n\t"a": 1\r\n}');
  });

  it('HTTP API v2: rawPath, requestContext.http, cookies back as one Cookie header', () => {
    const request = toServiceRequest(classified(sample('apigw-v2-request-iam.json')));
    expect(request.method).toBe('GET');
    expect(request.path).toBe('/my/path');
    expect(request.ip).toBe('IP');
    expect(request.headers).toMatchObject({ header1: 'value1', header2: 'value2', cookie: 'cookie1; cookie2' });
  });

  it('HTTP API v2 without authorizer: the x-forwarded-for entry AWS appended (the source IP) is dropped', () => {
    const request = toServiceRequest(classified(sample('apigw-v2-request-no-authorizer.json')));
    expect(request.ip).toBe('1.2.3.4');
    expect(request.headers).not.toHaveProperty('x-forwarded-for');
    expect(request.body).toEqual(new Uint8Array(0));
  });

  it('Function URL: the v2 shape, comma-joined repeats kept as sent', () => {
    const request = toServiceRequest(classified(sample('lambda-urls-request.json')));
    expect(request).toMatchObject({ method: 'POST', path: '/my/path', ip: '123.123.123.123' });
    expect(request.headers.header2).toBe('value1,value2');
    expect(Buffer.from(request.body ?? new Uint8Array()).toString('utf8')).toBe('Hello from client!');
  });

  it('ALB, single and multi-value headers: the last X-Forwarded-For hop is the client', () => {
    const single = toServiceRequest(classified(sample('alb-lambda-target-request-headers-only.json')));
    expect(single).toMatchObject({ method: 'GET', path: '/', ip: '25.12.198.67' });
    expect(single.headers).not.toHaveProperty('x-forwarded-for');
    expect(single.headers['x-myheader']).toBe('123');
    const multi = toServiceRequest(classified(sample('alb-lambda-target-request-multivalue-headers.json')));
    expect(multi.ip).toBe('72.21.198.67');
    expect(multi.headers.host).toBe('lambda-test-alb-1234567.us-east-1.elb.amazonaws.com');
  });
});

describe('requestScheme (docs/protocol.md#buyer-links)', () => {
  it("is https behind API Gateway and Function URLs, the ALB listener's own X-Forwarded-Proto behind an ALB", () => {
    for (const file of ['apigw-request.json', 'apigw-v2-request-iam.json', 'lambda-urls-request.json']) {
      expect(toServiceRequest(classified(sample(file))).scheme).toBe('https');
    }
    const alb = sample('alb-lambda-target-request-headers-only.json');
    expect(toServiceRequest(classified(alb)).scheme).toBe('http');
    const headers = { ...(alb.headers as Record<string, string>), 'x-forwarded-proto': 'HTTPS' };
    expect(requestScheme(classified({ ...alb, headers }), { 'x-forwarded-proto': 'HTTPS' })).toBe('https');
    expect(requestScheme(classified(alb), {})).toBeUndefined();
  });
});

describe('requestHeaders', () => {
  it('joins every value of multiValueHeaders, across spellings of one name, with ", "', () => {
    const event = {
      ...sample('apigw-request.json'),
      multiValueHeaders: { Accept: ['a/b', 'c/d'], accept: ['e/f'], 'X-Null': null },
    };
    expect(requestHeaders(classified(event))).toEqual({ accept: 'a/b, c/d, e/f' });
  });

  it('falls back to `headers` when multiValueHeaders is null (a console test event)', () => {
    const event = { ...sample('apigw-request.json'), headers: { 'User-Agent': 'X/1' }, multiValueHeaders: null };
    expect(requestHeaders(classified(event))).toEqual({ 'user-agent': 'X/1' });
  });

  it('ignores headers that are not strings, and a missing headers object', () => {
    const v2 = sample('apigw-v2-request-no-authorizer.json');
    expect(requestHeaders(classified({ ...v2, headers: { a: 'x', b: 1, c: null } }))).toEqual({ a: 'x' });
    const { headers: _dropped, ...noHeaders } = v2;
    expect(requestHeaders(classified(noHeaders))).toEqual({});
  });
});

describe('requestPath: the stage prefix', () => {
  const v2 = (rawPath: string, stage: string) => {
    const event = sample('apigw-v2-request-no-authorizer.json');
    return classified({ ...event, rawPath, requestContext: { ...contextOf(event), stage } });
  };
  const v1 = (path: string, contextPath: string, stage: string) => {
    const event = sample('apigw-request.json');
    return classified({ ...event, path, requestContext: { ...contextOf(event), path: contextPath, stage } });
  };

  it('HTTP API: a named stage is taken off the front of rawPath; $default and a Function URL keep it', () => {
    expect(requestPath(v2('/prod/api/licence', 'prod'))).toBe('/api/licence');
    expect(requestPath(v2('/prod', 'prod'))).toBe('/');
    expect(requestPath(v2('/production/api/licence', 'prod'))).toBe('/production/api/licence');
    expect(requestPath(v2('/prod/api/licence', '$default'))).toBe('/prod/api/licence');
    expect(requestPath(classified(sample('lambda-urls-request.json')))).toBe('/my/path');
  });

  it('REST: only on a custom domain (path equals requestContext.path), so a stage named "api" never eats /api', () => {
    expect(requestPath(v1('/prod/api/licence', '/prod/api/licence', 'prod'))).toBe('/api/licence');
    expect(requestPath(v1('/api/licence', '/prod/api/licence', 'prod'))).toBe('/api/licence');
    expect(requestPath(v1('/api/licence', '/api/api/licence', 'api'))).toBe('/api/licence');
  });

  it('ALB: the path as sent', () => {
    const alb = sample('alb-lambda-target-request-headers-only.json');
    expect(requestPath(classified({ ...alb, path: '/prod/api/licence' }))).toBe('/prod/api/licence');
  });
});

describe('requestQuery: the query string after `?`, percent-encoded, for the service', () => {
  const read = (query: string) => [...new URLSearchParams(query)];

  it('every AWS sample: what its client sent, in the event shape of its integration', () => {
    const query = (file: string) => toServiceRequest(classified(sample(file))).query;
    expect(query('apigw-request.json')).toBe('name=me');
    expect(query('apigw-v2-request-iam.json')).toBe('parameter1=value1&parameter1=value2&parameter2=value');
    expect(query('apigw-v2-request-jwt-authorizer.json')).toBe('parameter1=value1&parameter1=value2&parameter2=value');
    expect(query('apigw-v2-request-lambda-authorizer.json')).toBe(
      'parameter1=value1&parameter1=value2&parameter2=value',
    );
    expect(query('apigw-v2-request-no-authorizer.json')).toBe('');
    expect(query('lambda-urls-request.json')).toBe('parameter1=value1&parameter1=value2&parameter2=value');
    expect(query('alb-lambda-target-request-headers-only.json')).toBe('key=hello');
    expect(query('alb-lambda-target-request-multivalue-headers.json')).toBe('key=hello');
  });

  it('HTTP API and Function URL: rawQueryString as sent, encoding kept; none or not a string is empty', () => {
    const v2 = sample('apigw-v2-request-no-authorizer.json');
    expect(requestQuery(classified({ ...v2, rawQueryString: 'days=90&q=a%20b%26c' }))).toBe('days=90&q=a%20b%26c');
    const { rawQueryString: _dropped, ...none } = v2;
    expect(requestQuery(classified(none))).toBe('');
    expect(requestQuery(classified({ ...v2, rawQueryString: 7 }))).toBe('');
  });

  it('REST: the decoded parameters encoded again, every value of multiValueQueryStringParameters in order', () => {
    const rest = sample('apigw-request.json');
    const event = {
      ...rest,
      queryStringParameters: { days: '7', q: 'é' },
      multiValueQueryStringParameters: { days: ['7'], q: ['a b&c=d', 'é'] },
    };
    const query = requestQuery(classified(event));
    expect(query).toBe('days=7&q=a+b%26c%3Dd&q=%C3%A9');
    expect(read(query)).toEqual([
      ['days', '7'],
      ['q', 'a b&c=d'],
      ['q', 'é'],
    ]);
  });

  it('REST: queryStringParameters when there is no multi-value map (a console test event); both null: empty', () => {
    const rest = sample('apigw-request.json');
    const single = { ...rest, multiValueQueryStringParameters: null, queryStringParameters: { days: '30', x: '1+1' } };
    expect(read(requestQuery(classified(single)))).toEqual([
      ['days', '30'],
      ['x', '1+1'],
    ]);
    const none = { ...rest, multiValueQueryStringParameters: null, queryStringParameters: null };
    expect(requestQuery(classified(none))).toBe('');
  });

  it('REST: a value that is not a string is left out; a lone surrogate of a hand-made event does not throw', () => {
    const rest = sample('apigw-request.json');
    const odd = { ...rest, multiValueQueryStringParameters: { a: ['1', 2, null], b: 'x', c: ['\ud800'] } };
    expect(requestQuery(classified(odd))).toBe('a=1&c=%EF%BF%BD');
  });

  it('ALB: the parameters as the client sent them, never decoded, so never encoded twice', () => {
    const alb = sample('alb-lambda-target-request-headers-only.json');
    const single = { ...alb, queryStringParameters: { days: '90', q: 'a%20b%26c', 'n%C3%A9': '%C3%A9' } };
    const query = requestQuery(classified(single));
    expect(query).toBe('days=90&q=a%20b%26c&n%C3%A9=%C3%A9');
    expect(read(query)).toEqual([
      ['days', '90'],
      ['q', 'a b&c'],
      ['né', 'é'],
    ]);
    const multiSample = sample('alb-lambda-target-request-multivalue-headers.json');
    const multi = { ...multiSample, multiValueQueryStringParameters: { q: ['a%2Bb', 'c'], days: ['1'] } };
    expect(requestQuery(classified(multi))).toBe('q=a%2Bb&q=c&days=1');
    expect(requestQuery(classified({ ...multiSample, multiValueQueryStringParameters: {} }))).toBe('');
  });
});

describe('clientAddress', () => {
  const rest = classified(sample('apigw-request.json'));
  const alb = classified(sample('alb-lambda-target-request-headers-only.json'));

  it('API Gateway: the source IP, and X-Forwarded-For without the entry AWS appended', () => {
    expect(clientAddress(rest, '203.0.113.1, 192.168.196.186')).toEqual({
      ip: '192.168.196.186',
      forwardedFor: '203.0.113.1',
    });
    expect(clientAddress(rest, '192.168.196.186')).toEqual({ ip: '192.168.196.186', forwardedFor: undefined });
    expect(clientAddress(rest, undefined)).toEqual({ ip: '192.168.196.186', forwardedFor: undefined });
  });

  it('ALB: the last hop is the client; the entries before it are the header; none: no address', () => {
    expect(clientAddress(alb, '10.0.0.1,  198.51.100.2 , 203.0.113.9')).toEqual({
      ip: '203.0.113.9',
      forwardedFor: '10.0.0.1, 198.51.100.2',
    });
    expect(clientAddress(alb, undefined)).toEqual({ ip: '', forwardedFor: undefined });
  });

  it('a REST event without identity (a hand-made test event) has no address rather than a crash', () => {
    const event = sample('apigw-request.json');
    const { identity: _dropped, ...context } = contextOf(event);
    expect(clientAddress(classified({ ...event, requestContext: context }), undefined)).toEqual({
      ip: '',
      forwardedFor: undefined,
    });
  });
});

describe('requestBody', () => {
  it('decodes base64 when isBase64Encoded, reads text as UTF-8 otherwise, and no body as zero bytes', () => {
    const bytes = Uint8Array.from([0x7b, 0xff, 0x00, 0x7d]);
    expect(requestBody({ body: Buffer.from(bytes).toString('base64'), isBase64Encoded: true })).toEqual(bytes);
    expect(requestBody({ body: '{"é":1}', isBase64Encoded: false })).toEqual(
      new Uint8Array(Buffer.from('{"é":1}', 'utf8')),
    );
    for (const body of [null, undefined, ''])
      expect(requestBody({ body, isBase64Encoded: false })).toEqual(new Uint8Array(0));
  });

  it('hands the service a plain Uint8Array (its port), not a Buffer', () => {
    const body = requestBody({ body: 'abc', isBase64Encoded: false });
    expect(Buffer.isBuffer(body)).toBe(false);
    expect(body).toBeInstanceOf(Uint8Array);
  });
});
