import { isRecord } from '@licence/core';
import type { ALBEvent, APIGatewayProxyEvent, APIGatewayProxyEventV2, ScheduledEvent } from 'aws-lambda';

/**
 * The event shapes the adapter reads (CONTRIBUTING.md#architecture), with AWS's own types from
 * @types/aws-lambda (a dev dependency: types only, nothing of it is bundled):
 *
 * - `rest`: API Gateway REST API, Lambda proxy integration (payload 1.0). An HTTP API with payload
 *   format 1.0 sends the same shape, and is read the same way.
 * - `http`: API Gateway HTTP API, payload 2.0; a Lambda Function URL sends this shape too.
 * - `alb`: an Application Load Balancer target group, with or without multi-value headers.
 *
 * Events arrive as JSON, so the shape is checked at run time rather than trusted: a direct
 * invocation with anything else is answered, never a crash.
 */
export type LambdaHttpEvent = APIGatewayProxyEvent | APIGatewayProxyEventV2 | ALBEvent;

export type ClassifiedEvent =
  | { readonly kind: 'rest'; readonly event: APIGatewayProxyEvent }
  | { readonly kind: 'http'; readonly event: APIGatewayProxyEventV2 }
  | { readonly kind: 'alb'; readonly event: ALBEvent };

export type EventKind = ClassifiedEvent['kind'];

/**
 * Which integration sent `event`, or null when it is none of them. The checks go from the most
 * specific mark to the least: `requestContext.elb` is only in ALB events; `requestContext.http`
 * with a `rawPath` only in payload 2.0; `httpMethod` with a `requestContext` in payload 1.0.
 */
export function classifyEvent(event: unknown): ClassifiedEvent | null {
  if (!isRecord(event) || !isRecord(event.requestContext)) return null;
  const context = event.requestContext;
  // The AWS types below name the fields the readers use; to-service-request.ts still checks the
  // type of each one it reads (headers, sourceIp, body), so a hand-made event cannot crash it.
  if (isRecord(context.elb) && typeof event.httpMethod === 'string' && typeof event.path === 'string') {
    return { kind: 'alb', event: event as unknown as ALBEvent };
  }
  if (isRecord(context.http) && typeof context.http.method === 'string' && typeof event.rawPath === 'string') {
    return { kind: 'http', event: event as unknown as APIGatewayProxyEventV2 };
  }
  if (typeof event.httpMethod === 'string' && typeof event.path === 'string') {
    return { kind: 'rest', event: event as unknown as APIGatewayProxyEvent };
  }
  return null;
}

/**
 * An EventBridge schedule (`rate(1 day)` in template.yaml): the daily purge of client addresses
 * older than twelve months (docs/protocol.md#privacy), which a server runs on a timer and a Lambda
 * on a schedule.
 */
export function isScheduledEvent(event: unknown): event is ScheduledEvent {
  return isRecord(event) && event.source === 'aws.events' && event['detail-type'] === 'Scheduled Event';
}
