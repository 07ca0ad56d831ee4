import type { ServiceResponse } from '@licence/service';
import { readExternalJson } from '@licence/vectors';
import { describe, expect, it } from 'vitest';
import { classifyEvent } from './lambda-event.js';
import type { ClassifiedEvent } from './lambda-event.js';
import { hasMultiValueHeaders, statusDescription, toLambdaResult } from './to-lambda-result.js';

function classified(file: string, change: Record<string, unknown> = {}): ClassifiedEvent {
  const result = classifyEvent({
    ...readExternalJson<Record<string, unknown>>(`aws-lambda-events/${file}`),
    ...change,
  });
  if (result === null) throw new Error(`${file}: not an HTTP event`);
  return result;
}

const verdict: ServiceResponse = {
  status: 200,
  headers: { 'Cache-Control': 'no-store', 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' },
  body: '{"donnees":{},"signature":"x"}',
};
const limited: ServiceResponse = {
  status: 429,
  headers: { 'Retry-After': '12', 'Content-Type': 'application/problem+json' },
  body: '{}',
};

describe('toLambdaResult', () => {
  it('REST with multiValueHeaders in the event: multiValueHeaders only, isBase64Encoded false', () => {
    expect(toLambdaResult(classified('apigw-request.json'), verdict)).toEqual({
      statusCode: 200,
      multiValueHeaders: {
        'Cache-Control': ['no-store'],
        'Content-Type': ['application/json'],
        'Access-Control-Allow-Origin': ['*'],
      },
      body: verdict.body,
      isBase64Encoded: false,
    });
  });

  it('REST without multiValueHeaders (a hand-made event): headers only', () => {
    expect(toLambdaResult(classified('apigw-request.json', { multiValueHeaders: null }), limited)).toEqual({
      statusCode: 429,
      headers: limited.headers,
      body: '{}',
      isBase64Encoded: false,
    });
  });

  it('HTTP API and Function URL: headers, no statusDescription, no multiValueHeaders', () => {
    for (const file of ['apigw-v2-request-jwt-authorizer.json', 'lambda-urls-request.json']) {
      expect(toLambdaResult(classified(file), verdict)).toEqual({
        statusCode: 200,
        headers: verdict.headers,
        body: verdict.body,
        isBase64Encoded: false,
      });
    }
  });

  it('HTTP API: a Set-Cookie header becomes `cookies` (the only way payload 2.0 sends several)', () => {
    const withCookie: ServiceResponse = {
      status: 204,
      headers: { 'Set-Cookie': 'a=1; Secure', 'Cache-Control': 'no-store' },
      body: '',
    };
    expect(toLambdaResult(classified('apigw-v2-request-iam.json'), withCookie)).toEqual({
      statusCode: 204,
      headers: { 'Cache-Control': 'no-store' },
      cookies: ['a=1; Secure'],
      body: '',
      isBase64Encoded: false,
    });
  });

  it('ALB: statusDescription, and the header field its target group reads', () => {
    expect(toLambdaResult(classified('alb-lambda-target-request-headers-only.json'), limited)).toEqual({
      statusCode: 429,
      statusDescription: '429 Too Many Requests',
      headers: limited.headers,
      body: '{}',
      isBase64Encoded: false,
    });
    expect(toLambdaResult(classified('alb-lambda-target-request-multivalue-headers.json'), limited)).toEqual({
      statusCode: 429,
      statusDescription: '429 Too Many Requests',
      multiValueHeaders: { 'Retry-After': ['12'], 'Content-Type': ['application/problem+json'] },
      body: '{}',
      isBase64Encoded: false,
    });
  });
});

describe('hasMultiValueHeaders and statusDescription', () => {
  it('tells the event kinds apart', () => {
    expect(hasMultiValueHeaders(classified('apigw-request.json'))).toBe(true);
    expect(hasMultiValueHeaders(classified('alb-lambda-target-request-headers-only.json'))).toBe(false);
    expect(hasMultiValueHeaders(classified('apigw-v2-request-iam.json'))).toBe(false);
  });

  it('gives the RFC 9110 reason phrase, or the bare code for an unknown one', () => {
    expect(statusDescription(200)).toBe('200 OK');
    expect(statusDescription(503)).toBe('503 Service Unavailable');
    expect(statusDescription(599)).toBe('599');
  });
});
