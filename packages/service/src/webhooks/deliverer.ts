import { describeError, typeName, ValidationError } from '@licence/core';
import type {
  ClaimedWebhookDelivery,
  Clock,
  Logger,
  Store,
  WebhookAttemptOutcome,
  WebhookAttemptRecord,
} from '../ports/index.js';
import { nowSeconds } from '../http/index.js';
import { type AttemptSlots, createAttemptSlots } from './attempt-slots.js';
import { type ResolveAll, safeLookup } from './destination.js';
import { nextAttemptDelay, webhookJitter } from './schedule.js';
import { signWebhook } from './signature.js';
import { postWebhook, WEBHOOK_TIMEOUT_MS, type WebhookAnswer, type WebhookTransportOptions } from './transport.js';

/**
 * The deliverer (docs/protocol.md#webhooks): drains the outbox the Store fills in the same
 * transaction as each change. A round claims what is due (at most one delivery per endpoint, so an
 * endpoint's events go out in order), tries each once, concurrently, and records the attempt with
 * its outcome: delivered on a 2xx, else due again after the schedule's next delay, or failed when
 * the schedule is over. Delivery is at least once: a process that dies mid-attempt leaves a claim
 * that lapses by itself, and another round sends the delivery again (same `webhook-id`, so the
 * receiver can drop the duplicate).
 */

export { WEBHOOK_TIMEOUT_MS };

/** How many deliveries a round claims by default (one per endpoint). */
export const WEBHOOK_BATCH = 16;
/**
 * The attempts in flight at most, by default (docs/protocol.md#delivery, LICENCE_WEBHOOK_CONCURRENCY):
 * above the per-author quota of endpoints (10, quota.ts), so one author's endpoints, one
 * delivery in flight each, can hold at most a third of the slots while the others' events still go.
 */
export const WEBHOOK_CONCURRENCY = 32;
/** Its ceiling: each attempt holds a descriptor, which the Koa server keeps out of its connections. */
export const MAX_WEBHOOK_CONCURRENCY = 1000;
/** The pause between rounds that found nothing to do, by default. */
export const WEBHOOK_INTERVAL_MS = 1000;
/**
 * Seconds a claim outlives the attempt's timeout. While the claim holds, no other process (several
 * share one PostgreSQL) claims the delivery, so it must cover the whole attempt plus recording it:
 * a slow store write under load, and the clock skew between the processes that compare claims. Too
 * short would send a delivery twice; too long only delays the retry after a process died.
 */
export const WEBHOOK_LEASE_MARGIN_SECONDS = 30;

export interface WebhookDelivererOptions {
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  /** LICENCE_WEBHOOK_ALLOW_PRIVATE=1: http and private addresses allowed. Default false. */
  readonly allowPrivate?: boolean;
  /** Per attempt; default WEBHOOK_TIMEOUT_MS = 15000. */
  readonly timeoutMs?: number;
  /** How many deliveries one round claims (one per endpoint); default 16. */
  readonly batch?: number;
  /**
   * The attempts in flight at most, `runOnce` and the loop together (LICENCE_WEBHOOK_CONCURRENCY);
   * default 32, at most 1000. A round claims only as many deliveries as there are free slots.
   */
  readonly concurrency?: number;
  /** Hostname resolution (tests); default node's dns.lookup(all: true). */
  readonly resolve?: ResolveAll;
}

export interface WebhookDeliverer {
  /** Claims what is due and tries each once, concurrently; resolves with the attempts made. Never rejects (a store fault is logged, answers 0). */
  runOnce(): Promise<number>;
  /**
   * Runs a round every `intervalMs` (default 1000), and at once after each attempt, until stop();
   * rounds never overlap, and none waits for the attempts of the one before.
   */
  start(intervalMs?: number): void;
  /** Stops the loop and waits for the rounds and attempts in flight. */
  stop(): Promise<void>;
  /**
   * Each attempt's timeout in ms (`timeoutMs`, default WEBHOOK_TIMEOUT_MS): the longest a round's
   * attempts last, which a scheduled run keeps free for its next round (Lambda's drain,
   * docs/protocol.md#delivery-on-aws-lambda).
   */
  readonly timeoutMs: number;
}

interface Settings {
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly batch: number;
  readonly concurrency: number;
  readonly leaseSeconds: number;
  readonly transport: WebhookTransportOptions;
}

export function createWebhookDeliverer(options: WebhookDelivererOptions): WebhookDeliverer {
  const settings = checkOptions(options);
  const work = new Set<Promise<unknown>>();
  const track = <T>(promise: Promise<T>): Promise<T> => {
    work.add(promise);
    void promise.finally(() => work.delete(promise));
    return promise;
  };
  let loop: DeliveryLoop | null = null;
  const slots = createAttemptSlots(settings.concurrency);
  // An attempt's end frees its slot and wakes the loop, which may have stopped claiming while full.
  const attempt = (delivery: ClaimedWebhookDelivery): Promise<void> =>
    attemptDelivery(settings, delivery).finally(() => {
      slots.give(1);
      loop?.wake();
    });
  return {
    runOnce: () =>
      track(
        (async () => {
          const claimed = await claimFree(settings, slots);
          await Promise.all(claimed.map(attempt));
          return claimed.length;
        })(),
      ),
    start: (intervalMs = WEBHOOK_INTERVAL_MS) => {
      checkPositiveInteger('intervalMs', intervalMs);
      loop ??= startLoop({ settings, slots, attempt, track }, intervalMs);
    },
    stop: async () => {
      loop?.stop();
      loop = null;
      while (work.size > 0) await Promise.all(work);
    },
    timeoutMs: settings.transport.timeoutMs,
  };
}

interface DeliveryLoop {
  /** An attempt ended: a round at once (its slot is free, and its endpoint may have more). */
  wake(): void;
  stop(): void;
}

/** What the loop shares with `runOnce`: the settings, the slots, the attempt runner, the work tracker. */
interface LoopParts {
  readonly settings: Settings;
  readonly slots: AttemptSlots;
  readonly attempt: (delivery: ClaimedWebhookDelivery) => Promise<void>;
  readonly track: <T>(promise: Promise<T>) => Promise<T>;
}

/**
 * The loop of `start`: a round claims what is due and starts its attempts WITHOUT waiting for them,
 * so a receiver that takes its whole 15 s holds up nobody's next round; the store never hands out a
 * second delivery of an endpoint while one is claimed, which keeps each endpoint in order. A round
 * claims only as many deliveries as there are free slots (`concurrency`), and none when every slot
 * is busy: then it schedules nothing, and the next attempt to end wakes the loop, so a full
 * deliverer neither spins nor exceeds its bound (docs/protocol.md#delivery). Otherwise the next
 * round comes after `intervalMs`, or at once when an attempt ends or a round filled what it asked
 * for (the endpoint's next event, or a backlog, goes out without waiting). Rounds never overlap.
 */
function startLoop(parts: LoopParts, intervalMs: number): DeliveryLoop {
  const { settings, slots, attempt, track } = parts;
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  let claiming = false;
  let again = false;
  const schedule = (delay: number): void => {
    if (!running) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => void track(round()), delay);
    timer.unref();
  };
  const round = async (): Promise<void> => {
    timer = undefined;
    if (claiming) {
      again = true;
      return;
    }
    if (slots.inUse() >= settings.concurrency) return;
    claiming = true;
    const claimed = await claimFree(settings, slots);
    claiming = false;
    for (const delivery of claimed) void track(attempt(delivery));
    const free = slots.inUse() < settings.concurrency;
    const more = free && (again || claimed.length === settings.batch);
    again = false;
    if (more) schedule(0);
    else if (free && timer === undefined) schedule(intervalMs);
  };
  schedule(0);
  return {
    wake: () => schedule(0),
    stop: () => {
      running = false;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}

function checkOptions(options: WebhookDelivererOptions): Settings {
  const { store, clock, logger, allowPrivate = false, timeoutMs = WEBHOOK_TIMEOUT_MS, batch = WEBHOOK_BATCH } = options;
  const { concurrency = WEBHOOK_CONCURRENCY } = options;
  if (typeof allowPrivate !== 'boolean') {
    throw new ValidationError('allowPrivate', `allowPrivate: expected a boolean, got ${typeName(allowPrivate)}`);
  }
  checkPositiveInteger('timeoutMs', timeoutMs);
  checkPositiveInteger('batch', batch);
  checkPositiveInteger('concurrency', concurrency);
  if (concurrency > MAX_WEBHOOK_CONCURRENCY) {
    throw new ValidationError(
      'concurrency',
      `concurrency: expected at most ${MAX_WEBHOOK_CONCURRENCY}, got ${concurrency}`,
    );
  }
  return {
    store,
    clock,
    logger,
    batch,
    concurrency,
    leaseSeconds: Math.ceil(timeoutMs / 1000) + WEBHOOK_LEASE_MARGIN_SECONDS,
    transport: { timeoutMs, allowPrivate, lookup: safeLookup(allowPrivate, options.resolve) },
  };
}

function checkPositiveInteger(field: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    const got = typeof value === 'number' ? String(value) : typeName(value);
    throw new ValidationError(field, `${field}: expected a positive integer, got ${got}`);
  }
}

/**
 * What is due now, claimed for this process: at most `batch`, and at most the free slots, taken
 * before the claim and kept for the deliveries it returned (each given back when its attempt ends).
 * None when every slot is busy (no claim is made), or when the store fails (logged: the next round
 * tries again).
 */
async function claimFree(settings: Settings, slots: AttemptSlots): Promise<readonly ClaimedWebhookDelivery[]> {
  const taken = slots.take(settings.batch);
  if (taken === 0) return [];
  const now = nowSeconds(settings.clock);
  let claimed: readonly ClaimedWebhookDelivery[] = [];
  try {
    claimed = await settings.store.claimWebhookDeliveries(now, now + settings.leaseSeconds, taken);
  } catch (error) {
    settings.logger.error(
      { event: 'webhook-claim-failed', err: describeError(error) },
      'webhook round: the store failed',
    );
  }
  // A store answering more than asked would be its bug; those beyond the slots are not tried (their claims lapse).
  const kept = claimed.slice(0, taken);
  slots.give(taken - kept.length);
  return kept;
}

/** Signs, sends, records; never rejects (a fault leaves the claim to lapse: the delivery is tried again). */
async function attemptDelivery(settings: Settings, delivery: ClaimedWebhookDelivery): Promise<void> {
  try {
    const at = nowSeconds(settings.clock);
    // A duration, not a time of day: the monotonic clock, which a test's moved Clock does not stop.
    const started = performance.now();
    const answer = await send(settings, delivery, at);
    const attempt: WebhookAttemptRecord = { ...answer, at, durationMs: Math.round(performance.now() - started) };
    // Rounded up: a retry "after 5 s" never comes sooner, whatever the fraction of the second now.
    const outcome = outcomeOf(delivery, answer, Math.ceil(settings.clock.now() / 1000));
    await settings.store.finishWebhookAttempt(delivery.id, attempt, outcome);
    logAttempt(settings.logger, delivery, attempt, outcome);
  } catch (error) {
    settings.logger.error(
      {
        event: 'webhook-attempt-failed',
        endpoint: delivery.endpointId,
        delivery: delivery.id,
        err: describeError(error),
      },
      'webhook attempt not recorded',
    );
  }
}

function send(settings: Settings, delivery: ClaimedWebhookDelivery, at: number): Promise<WebhookAnswer> {
  let headers: ReturnType<typeof signWebhook>;
  try {
    // webhook-id is the event's id: the same on every attempt and for every endpoint of the event.
    headers = signWebhook({ id: delivery.eventId, timestamp: at, body: delivery.body }, delivery.secrets);
  } catch (error) {
    // signWebhook's messages never repeat a secret.
    const reason = error instanceof ValidationError ? error.message : 'unexpected error';
    return Promise.resolve({ status: null, error: `cannot sign (${reason})` });
  }
  return postWebhook({ url: delivery.url, headers, body: delivery.body }, settings.transport);
}

/** Delivered on a 2xx; else due again after the schedule's delay from now, or failed when it is over. */
function outcomeOf(delivery: ClaimedWebhookDelivery, answer: WebhookAnswer, now: number): WebhookAttemptOutcome {
  if (answer.error === null) return { status: 'delivered' };
  const delay = nextAttemptDelay(delivery.attempts + 1, { jitter: webhookJitter(delivery.id) });
  return delay === null ? { status: 'failed' } : { status: 'pending', nextAttemptAt: now + delay };
}

/** One line per attempt: ids, status or error, duration. Never the URL (its query), a secret or the body. */
function logAttempt(
  logger: Logger,
  delivery: ClaimedWebhookDelivery,
  attempt: WebhookAttemptRecord,
  outcome: WebhookAttemptOutcome,
): void {
  const fields = {
    event: 'webhook-attempt',
    endpoint: delivery.endpointId,
    delivery: delivery.id,
    attempt: delivery.attempts + 1,
    status: attempt.status,
    error: attempt.error,
    durationMs: attempt.durationMs,
    outcome: outcome.status,
    nextAttemptAt: outcome.status === 'pending' ? outcome.nextAttemptAt : null,
  };
  if (outcome.status === 'delivered') logger.info(fields, 'webhook delivered');
  else logger.warn(fields, outcome.status === 'failed' ? 'webhook delivery failed' : 'webhook attempt failed');
}
