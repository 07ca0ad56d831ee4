// RFC 3339 (the internet profile of ISO 8601): a full date and time with a zone, so that the
// instant is never guessed. Fractions of a second are accepted and dropped.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * An ISO 8601 date-time with a zone (docs/protocol.md#administration: `expire`), to whole seconds
 * since the epoch; null when not one.
 */
export function parseDateTime(value: string): number | null {
  const match = DATE_TIME.exec(value);
  if (match === null) return null;
  const [, y, mo, d, h, mi, s = '0', zone = 'Z'] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0 to 99 as 1900 to 1999.
  const check = new Date(0);
  check.setUTCFullYear(year, month - 1, day);
  check.setUTCHours(hour, minute, second, 0);
  const ms = check.getTime();
  // A day the month does not have (31 February) rolls over into the next month: refuse it.
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return null;
  let offset = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const zh = Number(zone.slice(1, 3));
    const zm = Number(zone.slice(4, 6));
    if (zh > 23 || zm > 59) return null;
    offset = sign * (zh * 60 + zm) * 60;
  }
  return Math.floor(ms / 1000) - offset;
}
