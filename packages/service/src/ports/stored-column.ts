import { storedOutcome } from './activity-day.js';
import { storedKeyEndedBy, storedKeyKind, storedKeyStatus, storedStaging } from './stored-key-fields.js';
import { storedDeliveryStatus, storedEventType } from './stored-webhook-fields.js';

/**
 * The column readers the SQLite and PostgreSQL stores share (docs/protocol.md#storage): each takes
 * a value as a row holds it and answers it typed, or throws a TypeError that names the row and the
 * value (a database edited by hand or by a newer build, docs/protocol.md#errors). One object, so a
 * store imports one name for all of them.
 */
export const storedColumn = Object.freeze({
  /** A key's kind (`keys.kind`). */
  keyKind: storedKeyKind,
  /** A key's status (`keys.status`). */
  keyStatus: storedKeyStatus,
  /** Who ended a key (`keys.ended_by`), NULL as null. */
  keyEndedBy: storedKeyEndedBy,
  /** A product's staging patterns, already decoded. */
  staging: storedStaging,
  /** A webhook event's type, read from `where`. */
  eventType: storedEventType,
  /** A webhook delivery's status. */
  deliveryStatus: storedDeliveryStatus,
  /** A verdict's outcome in the request log or the activity counts, read from `where`. */
  outcome: storedOutcome,
});
