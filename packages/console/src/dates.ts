import type { Lang } from './language.js';

/**
 * Dates in the chosen language (Intl.DateTimeFormat). Instants (`firstSeen`, `created`...) in the
 * reader's time zone; activity days are UTC days (docs/protocol.md#activity), shown as such.
 */

const cache = new Map<string, Intl.DateTimeFormat>();

function formatter(lang: Lang, name: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const id = `${lang}:${name}`;
  let found = cache.get(id);
  if (found === undefined) {
    found = new Intl.DateTimeFormat(lang === 'fr' ? 'fr-FR' : 'en-GB', options);
    cache.set(id, found);
  }
  return found;
}

/**
 * An ISO 8601 instant as date and time; the text as it is when it does not parse. `seconds`: to the
 * second, where they matter (a webhook's attempts, the first retry 5 s after the first try).
 */
export function formatInstant(iso: string, lang: Lang, seconds = false): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const timeStyle = seconds ? 'medium' : 'short';
  return formatter(lang, `instant-${timeStyle}`, { dateStyle: 'medium', timeStyle }).format(date);
}

/** A `YYYY-MM-DD` UTC day, in full (`short`: day and month only, for the chart's axis). */
export function formatDay(day: string, lang: Lang, short = false): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  const options: Intl.DateTimeFormatOptions = short
    ? { day: 'numeric', month: 'short', timeZone: 'UTC' }
    : { dateStyle: 'medium', timeZone: 'UTC' };
  return formatter(lang, short ? 'day-short' : 'day', options).format(date);
}
