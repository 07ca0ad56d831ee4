import type { WebhookDeliveryView } from './api-types.js';
import type { Lang } from './language.js';

const numbers = new Map<Lang, Intl.NumberFormat>();

/**
 * How long an attempt took: milliseconds under a second, else seconds to a tenth, in the language's
 * spelling (`1.5 s`, `1,5 s`), a no-break space before the unit so it never wraps alone.
 */
export function formatDuration(ms: number, lang: Lang): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}\u00a0ms`;
  let format = numbers.get(lang);
  if (format === undefined) {
    format = new Intl.NumberFormat(lang === 'fr' ? 'fr-FR' : 'en-GB', { maximumFractionDigits: 1 });
    numbers.set(lang, format);
  }
  return `${format.format(ms / 1000)}\u00a0s`;
}

/** The list with `updated` in the place of the delivery of the same id (a retry's answer); the rest as it was. */
export function replaceDelivery(
  list: readonly WebhookDeliveryView[],
  updated: WebhookDeliveryView,
): WebhookDeliveryView[] {
  return list.map((delivery) => (delivery.id === updated.id ? updated : delivery));
}

/** A 2xx: what the deliverer counts as delivered (docs/protocol.md#webhooks). */
export function isSuccess(status: number | null): boolean {
  return status !== null && status >= 200 && status <= 299;
}
