import { describe, expect, it } from 'vitest';
import { HttpError } from './problem.js';
import { emptyResponse, errorResponse, jsonResponse, problemResponse } from './response.js';

describe('responses', () => {
  it('json: application/json, no-store, nosniff, extra headers', () => {
    expect(jsonResponse(201, { a: 1 }, { X: 'y' })).toEqual({
      status: 201,
      headers: {
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        'Content-Type': 'application/json',
        X: 'y',
      },
      body: '{"a":1}',
    });
  });

  it('empty: no body, no-store, nosniff', () => {
    expect(emptyResponse(204)).toEqual({
      status: 204,
      headers: { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' },
      body: '',
    });
  });

  it('problem: application/problem+json with the RFC 9457 members', () => {
    const response = problemResponse('not-found', 'no such path');
    expect(response.status).toBe(404);
    expect(response.headers['Content-Type']).toBe('application/problem+json');
    expect(response.headers['X-Content-Type-Options']).toBe('nosniff');
    expect(JSON.parse(response.body)).toEqual({
      type: 'https://licence.dev/problems/not-found',
      title: 'Not found',
      status: 404,
      detail: 'no such path',
    });
  });

  it('error: the HttpError status, its headers and the extra ones', () => {
    const error = new HttpError('rate-limited', 'later', { headers: { 'Retry-After': '7' } });
    const response = errorResponse(error, { 'Access-Control-Allow-Origin': '*' });
    expect(response.status).toBe(429);
    expect(response.headers).toMatchObject({
      'Retry-After': '7',
      'Access-Control-Allow-Origin': '*',
      'Cache-Control': 'no-store',
    });
  });
});
