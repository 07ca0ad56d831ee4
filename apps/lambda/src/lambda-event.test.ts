import { readExternalJson } from '@licence/vectors';
import { describe, expect, it } from 'vitest';
import { classifyEvent, isScheduledEvent } from './lambda-event.js';

const sample = (file: string): unknown => readExternalJson<unknown>(`aws-lambda-events/${file}`);

describe('classifyEvent', () => {
  it.each([
    ['apigw-request.json', 'rest'],
    ['apigw-v2-request-no-authorizer.json', 'http'],
    ['apigw-v2-request-jwt-authorizer.json', 'http'],
    ['apigw-v2-request-lambda-authorizer.json', 'http'],
    ['apigw-v2-request-iam.json', 'http'],
    ['lambda-urls-request.json', 'http'],
    ['alb-lambda-target-request-headers-only.json', 'alb'],
    ['alb-lambda-target-request-multivalue-headers.json', 'alb'],
  ])('%s is %s', (file, kind) => {
    expect(classifyEvent(sample(file))?.kind).toBe(kind);
  });

  it('reads an HTTP API payload 1.0 event (version "1.0") as the REST shape it is', () => {
    const event = {
      version: '1.0',
      httpMethod: 'POST',
      path: '/api/licence',
      headers: {},
      requestContext: { identity: { sourceIp: '192.0.2.1' } },
    };
    expect(classifyEvent(event)?.kind).toBe('rest');
  });

  it('is null for anything else: no requestContext, no method, a schedule, not an object', () => {
    for (const event of [
      null,
      undefined,
      'text',
      42,
      [],
      {},
      { requestContext: {} },
      { httpMethod: 'GET', path: '/' },
      { requestContext: { http: { method: 'GET' } } },
      { source: 'aws.events', 'detail-type': 'Scheduled Event' },
    ]) {
      expect(classifyEvent(event)).toBeNull();
    }
  });
});

describe('isScheduledEvent', () => {
  it('is true for an EventBridge schedule only', () => {
    expect(isScheduledEvent({ source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} })).toBe(true);
    expect(isScheduledEvent({ source: 'aws.events', 'detail-type': 'EC2 Instance State-change Notification' })).toBe(
      false,
    );
    expect(isScheduledEvent(sample('apigw-request.json'))).toBe(false);
    expect(isScheduledEvent(null)).toBe(false);
  });
});
