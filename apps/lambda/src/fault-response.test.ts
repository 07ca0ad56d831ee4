import { describe, expect, it } from 'vitest';
import { faultResponse, notAnHttpEventResponse } from './fault-response.js';

describe('faultResponse (docs/protocol.md#errors: a fault is a 5xx problem, never a signed refusal)', () => {
  it('500 internal-error and 503 service-unavailable, problem+json, no-store, nothing of the cause', () => {
    const internal = faultResponse(500, '/admin/keys');
    expect(internal.status).toBe(500);
    expect(internal.headers).toEqual({
      'Content-Type': 'application/problem+json',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    expect(JSON.parse(internal.body)).toEqual({
      type: 'https://licence.dev/problems/internal-error',
      title: 'Internal error',
      status: 500,
      detail: 'an internal error occurred',
    });
    const unavailable = faultResponse(503, '/healthz');
    expect(JSON.parse(unavailable.body)).toMatchObject({
      type: 'https://licence.dev/problems/service-unavailable',
      status: 503,
    });
  });

  it('carries CORS on both spellings of the public endpoint (every answer there does)', () => {
    for (const path of ['/api/licence', '/api/license'])
      expect(faultResponse(500, path).headers['Access-Control-Allow-Origin']).toBe('*');
  });

  it('a direct invocation with no HTTP event is a 400 problem that says what was expected', () => {
    const response = notAnHttpEventResponse();
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({
      type: 'https://licence.dev/problems/invalid-request',
      status: 400,
      detail: expect.stringContaining('Function URL'),
    });
  });
});
