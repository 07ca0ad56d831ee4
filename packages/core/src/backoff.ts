import { typeName, ValidationError } from './validation-error.js';

/**
 * How long a client waits after a failed call before it calls again (docs/protocol.md#back-off):
 * without this a service outage would add the 6 s timeout to every page of a shop.
 */

/** The wait after the first failed call, in seconds (docs/protocol.md#back-off: 5 min). */
export const BACKOFF_BASE_SECONDS = 300;
/** The longest wait, in seconds (docs/protocol.md#back-off: doubling to 1 h); also the cap of `Retry-After`. */
export const BACKOFF_MAX_SECONDS = 3600;
/** The shortest wait a `Retry-After` may ask for: "0" or a past date must not mean "call again now, in a loop". */
export const RETRY_AFTER_MIN_SECONDS = 1;

/**
 * The wait after the `failures`-th consecutive failed call: 300, 600, 1200, 2400, 3600, 3600...
 * (5 min doubling, capped at 1 h). Computed without `2 ** n`, so a huge count cannot overflow.
 */
export function backoffSeconds(failures: number): number {
  if (typeof failures !== 'number' || !Number.isSafeInteger(failures) || failures < 1) {
    throw new ValidationError(
      'failures',
      `failures: expected a positive integer, got ${typeof failures === 'number' ? String(failures) : typeName(failures)}`,
    );
  }
  let delay = BACKOFF_BASE_SECONDS;
  for (let n = 1; n < failures && delay < BACKOFF_MAX_SECONDS; n++) delay *= 2;
  return Math.min(delay, BACKOFF_MAX_SECONDS);
}

/** What a failed call tells the back-off: its HTTP status and `Retry-After`, when it had a response. */
export interface FailedCall {
  /** Consecutive failed calls, this one included (1 for the first). */
  readonly failures: number;
  /** Seconds since the epoch: an HTTP-date `Retry-After` is counted from here. */
  readonly now: number;
  /** The HTTP status, absent for a transport failure or a timeout. */
  readonly status?: number | undefined;
  /** The raw `Retry-After` header, if any. */
  readonly retryAfter?: string | null | undefined;
}

/**
 * The wait after a failed call: on a 429 with a usable `Retry-After`, what the service asked for
 * (docs/protocol.md#back-off, #errors: retry later), clamped to [1, 3600]; otherwise the schedule of
 * `backoffSeconds`. `Retry-After` is honoured on 429 only: it is the one status on which our
 * service sends it (docs/protocol.md#errors), and a 5xx must not shorten the schedule.
 */
export function failedCallDelay(call: FailedCall): number {
  const schedule = backoffSeconds(call.failures);
  if (call.status === 429 && typeof call.retryAfter === 'string') {
    const asked = retryAfterSeconds(call.retryAfter, call.now);
    if (asked !== null) return asked;
  }
  return schedule;
}

/**
 * Reads a `Retry-After` value (RFC 9110 10.2.3): delta-seconds, or an HTTP-date counted from
 * `now`. Returns the wait in seconds clamped to [1, 3600], or null when the value is unusable
 * (then the caller falls back to its schedule). Leading and trailing spaces and tabs are
 * ignored (RFC 9110 5.5: a field value excludes surrounding white space).
 */
export function retryAfterSeconds(value: string, now: number): number | null {
  if (typeof value !== 'string') {
    throw new ValidationError('retryAfter', `retryAfter: expected a string, got ${typeName(value)}`);
  }
  if (!Number.isSafeInteger(now)) {
    throw new ValidationError(
      'now',
      `now: expected an integer (seconds), got ${typeof now === 'number' ? String(now) : typeName(now)}`,
    );
  }
  const text = value.replace(/^[ \t]+|[ \t]+$/g, '');
  // delta-seconds = 1*DIGIT. Any number of digits is accepted; a huge one is simply capped.
  if (/^[0-9]+$/.test(text)) return clamp(Number(text));
  const date = parseHttpDate(text, now);
  if (date === null) return null;
  return clamp(date - now);
}

function clamp(seconds: number): number {
  return Math.min(Math.max(seconds, RETRY_AFTER_MIN_SECONDS), BACKOFF_MAX_SECONDS);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = MONTHS.join('|');
const DAY = 'Mon|Tue|Wed|Thu|Fri|Sat|Sun';
const DAY_LONG = 'Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday';
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';

// RFC 9110 5.6.7: a recipient MUST accept all three forms. They are case-sensitive.
/** IMF-fixdate, the preferred form: `Sun, 06 Nov 1994 08:49:37 GMT`. */
const IMF_FIXDATE = new RegExp(`^(?:${DAY}), (\\d{2}) (${MONTH}) (\\d{4}) ${TIME} GMT$`);
/** Obsolete RFC 850 form: `Sunday, 06-Nov-94 08:49:37 GMT`. */
const RFC850_DATE = new RegExp(`^(?:${DAY_LONG}), (\\d{2})-(${MONTH})-(\\d{2}) ${TIME} GMT$`);
/** Obsolete asctime form: `Sun Nov  6 08:49:37 1994`. */
const ASCTIME_DATE = new RegExp(`^(?:${DAY}) (${MONTH}) ( \\d|\\d{2}) ${TIME} (\\d{4})$`);

/**
 * An HTTP-date as seconds since the epoch, or null. Parsed by hand rather than with
 * `Date.parse`, whose acceptance of anything but ISO 8601 is implementation-defined
 * (ECMA-262 21.4.3.2: V8 reads "1" as a date in 2001): the PHP client must reach the same
 * verdict on the same header. The weekday name is not checked against the date.
 */
function parseHttpDate(text: string, now: number): number | null {
  let match = IMF_FIXDATE.exec(text);
  if (match !== null) {
    const [, day, month, year, hour, minute, second] = match;
    return toSeconds(Number(year), month, Number(day), hour, minute, second);
  }
  match = RFC850_DATE.exec(text);
  if (match !== null) {
    const [, day, month, yy, hour, minute, second] = match;
    // RFC 9110 5.6.7: a two-digit year that would lie more than 50 years in the future is the
    // most recent past year with the same last two digits.
    const nowYear = new Date(now * 1000).getUTCFullYear();
    let year = nowYear - (nowYear % 100) + Number(yy);
    if (year > nowYear + 50) year -= 100;
    return toSeconds(year, month, Number(day), hour, minute, second);
  }
  match = ASCTIME_DATE.exec(text);
  if (match !== null) {
    const [, month, day, hour, minute, second, year] = match;
    return toSeconds(Number(year), month, Number(day), hour, minute, second);
  }
  return null;
}

function toSeconds(
  year: number,
  monthName: string | undefined,
  day: number,
  hourText: string | undefined,
  minuteText: string | undefined,
  secondText: string | undefined,
): number | null {
  const month = MONTHS.indexOf(monthName ?? '');
  const hour = Number(hourText);
  const minute = Number(minuteText);
  // 60 is a leap second (RFC 5322 3.3 allows it); it rolls into the next minute.
  const second = Number(secondText);
  if (month < 0 || hour > 23 || minute > 59 || second > 60) return null;
  // setUTCFullYear, not Date.UTC: Date.UTC maps the years 0..99 to 1900..1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month, day);
  // "31 Feb" would roll over into March: a date that does not exist is unusable, not guessed at.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month || date.getUTCDate() !== day) return null;
  return date.getTime() / 1000 + hour * 3600 + minute * 60 + second;
}
