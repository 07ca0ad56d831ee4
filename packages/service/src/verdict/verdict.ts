import {
  decideVerdict,
  isValidationError,
  keyHint,
  MOTIFS,
  parseKeyRecord,
  signDonnees,
  type HostInfo,
  type KeyRecord,
  type Nonce,
  type Produit,
  type SignedEnvelope,
  type VerdictDecision,
} from '@licence/core';
import { hashKey } from './key-hash.js';
import type { RequestLogEntry, StoredKey, VerdictOutcome } from '../ports/index.js';
import { HttpError } from '../http/index.js';
import { callOr503, nowSeconds, type ServiceContext } from '../http/index.js';
import { domainBoundEvent, verdictRefusedEvent } from '../webhooks/index.js';

/** A parsed verdict request (public-endpoint.ts): every field already checked (the 400s are behind us). */
export interface VerdictInput {
  /** The normalised key (never logged: only its hint). */
  readonly key: string;
  readonly host: HostInfo;
  /** undefined: the request had none (docs/protocol.md#product-and-nonce). */
  readonly produit: Produit | undefined;
  readonly nonce: Nonce | undefined;
  /** The client IP (docs/protocol.md#client-address), for the request log. */
  readonly ip: string;
}

/**
 * Core's view of a stored key (docs/protocol.md#verdict), checked by core's parseKeyRecord; null
 * for no such key. A record the rules refuse is an internal fault, a 500, never a signed refusal
 * (docs/protocol.md#binding, #errors).
 */
export function toKeyRecord(stored: StoredKey | null): KeyRecord | null {
  if (stored === null) return null;
  try {
    return parseKeyRecord({
      kind: stored.kind,
      status: stored.status,
      endedAt: stored.endedAt,
      expiresAt: stored.expiresAt,
      products: stored.products,
      sites: stored.sites,
      domains: stored.domains.map((entry) => entry.domain),
    });
  } catch (error) {
    if (isValidationError(error)) {
      throw new HttpError('internal-error', 'the stored key record is invalid', { cause: error });
    }
    throw error;
  }
}

/**
 * `lastSeen` of a bound domain is kept to the hour (docs/protocol.md#privacy names no resolution):
 * a repeat verdict within the hour writes nothing, which spares the store a write on most requests.
 */
export const LAST_SEEN_RESOLUTION_SECONDS = 3600;

/** Whether rule 7's sighting of `domain` is news worth writing (see LAST_SEEN_RESOLUTION_SECONDS). */
function seenLongAgo(stored: StoredKey, domain: string, now: number): boolean {
  const entry = stored.domains.find((bound) => bound.domain === domain);
  return entry === undefined || now - entry.lastSeen >= LAST_SEEN_RESOLUTION_SECONDS;
}

/**
 * What the request log records of a verdict (docs/protocol.md#activity): its outcome (`ok`, `essai`
 * for ok with `essai` true, a test host or a development key, else the refusal's motif), and the
 * product whose activity counts it: the requested product when the key opens it, else the key's
 * own; none for an unknown key.
 */
export function verdictActivity(
  decision: VerdictDecision,
  stored: StoredKey | null,
  requestedProductId: Produit | undefined,
): Pick<RequestLogEntry, 'outcome' | 'produit'> {
  const outcome = outcomeOf(decision);
  if (stored === null) return { outcome, produit: null };
  return {
    outcome,
    produit:
      requestedProductId !== undefined && stored.products.includes(requestedProductId)
        ? requestedProductId
        : stored.produit,
  };
}

function outcomeOf({ donnees }: VerdictDecision): VerdictOutcome {
  if (donnees.ok) return donnees.essai ? 'essai' : 'ok';
  // Always one of core's MOTIFS (decideVerdict); `Donnees` types it as a string only so that
  // clients accept motifs added later.
  const motif = MOTIFS.find((candidate) => candidate === donnees.motif);
  if (motif === undefined) throw new HttpError('internal-error', 'the verdict has no known motif');
  return motif;
}

/**
 * docs/protocol.md#webhooks: an `autre_domaine` refusal of a known key is the moment to sell a
 * bigger licence, so it becomes a `verdict.refused` event, at most once per key, host and UTC day
 * (the store drops a duplicate `dedupe`). Written to the store's outbox only: the verdict never
 * waits on the shop's receiver, which the deliverer calls later.
 */
async function noteRefusal(
  context: ServiceContext,
  stored: StoredKey | null,
  decision: VerdictDecision,
  host: HostInfo,
  now: number,
): Promise<void> {
  if (stored === null || decision.donnees.motif !== 'autre_domaine') return;
  const data = { hint: stored.hint, produit: stored.produit, motif: 'autre_domaine', hote: host.hote } as const;
  const event = verdictRefusedEvent(context.random, now, stored.id, data);
  await callOr503(() => context.store.addWebhookEvent(event));
}

/**
 * The staging patterns beyond the built-in ones (docs/protocol.md#staging-hosts, rule 6 of the
 * decision): the operator's (LICENCE_STAGING_HOSTS) and those of the key's own product, whichever
 * product the request names. None for an unknown key, which answers `inconnue` before rule 6.
 */
export function stagingPatterns(context: Pick<ServiceContext, 'stagingHosts'>, stored: StoredKey | null): string[] {
  return [...(context.stagingHosts ?? []), ...(stored?.staging ?? [])];
}

/** Binding is tried at most this often: once, and once more after losing a race. */
const BIND_ATTEMPTS = 2;

/**
 * The verdict (docs/protocol.md#verdict), carried out against the store and signed: look the key up
 * by its hash, let core decide, bind atomically when core asks (deciding again if a racing call
 * took the last slot), note the last sighting of an already bound domain, log the request
 * (docs/protocol.md#privacy), sign. A new binding's `domain.bound` event is stored by the same
 * write, and only when it binds; an `autre_domaine` refusal is noted for the webhooks
 * (`noteRefusal`), in parallel with the log line (docs/protocol.md#webhooks).
 *
 * Every fault is thrown as a 5xx HttpError (docs/protocol.md#errors: never a signed refusal): a
 * store that does not answer (503), or a record that core refuses (500, toKeyRecord).
 */
export async function answerVerdict(context: ServiceContext, input: VerdictInput): Promise<SignedEnvelope> {
  const { store, logger } = context;
  const now = nowSeconds(context.clock);
  const hint = keyHint(input.key);
  const hash = hashKey(input.key);
  const { host, produit, nonce } = input;

  const decide = (stored: StoredKey | null): VerdictDecision =>
    decideVerdict({
      key: toKeyRecord(stored),
      host,
      produit,
      nonce,
      now,
      settings: context.settings,
      staging: stagingPatterns(context, stored),
    });

  let stored = await callOr503(() => store.findKeyByHash(hash));
  let decision = decide(stored);
  let touch = decision.donnees.ok && !decision.donnees.essai && decision.bind === null;

  for (let attempt = 1; decision.bind !== null && stored !== null; attempt += 1) {
    const keyId: string = stored.id;
    const domain: string = decision.bind;
    const sites = stored.sites;
    const event = domainBoundEvent(context.random, now, { hint: stored.hint, produit: stored.produit, domain });
    const result = await callOr503(() => store.bindDomain(keyId, domain, sites, now, [event]));
    touch = false;
    if (result !== 'full') break;
    // A racing call took the last slot between our read and our bind (docs/protocol.md#verdict:
    // binding is atomic, of two first calls racing exactly one binds): decide again on the fresh
    // record, which now answers rule 7 (same domain) or rule 9 (autre_domaine).
    if (attempt >= BIND_ATTEMPTS) {
      throw new HttpError('internal-error', 'the domain binding did not settle');
    }
    stored = await callOr503(() => store.findKeyById(keyId));
    decision = decide(stored);
    touch = decision.donnees.ok && !decision.donnees.essai && decision.bind === null;
  }

  // Rule 7: the domain was already bound; keep its "last seen" current (docs/protocol.md#privacy).
  if (touch && stored !== null && host.registrable !== null && seenLongAgo(stored, host.registrable, now)) {
    const keyId = stored.id;
    const domain = host.registrable;
    await callOr503(() => store.touchDomain(keyId, domain, now));
  }

  const keyId = stored?.id ?? null;
  const activity = verdictActivity(decision, stored, produit);
  await Promise.all([
    callOr503(() => store.logRequest({ at: now, keyId, host: host.hote, ip: input.ip, ...activity })),
    noteRefusal(context, stored, decision, host, now),
  ]);

  const envelope = signDonnees(decision.donnees, context.signer);
  logger.info({ hint, ok: decision.donnees.ok, motif: decision.donnees.motif, hote: host.hote }, 'verdict');
  return envelope;
}
