/**
 * HTML built from templates whose every value is escaped (the buyer's pages,
 * docs/protocol.md#buyer-links): product and author names and domains come from the store, and a
 * refused form's fields from the buyer, so none may open a tag or leave an attribute. The one way
 * to put markup in a template is another `html` template's result.
 */

/** Markup made by `html`: the only value a template inserts unescaped. */
export class Html {
  constructor(readonly text: string) {}
}

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for an element's content and for a quoted attribute value (HTML Standard 13.1.2.3). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);
}

/** A template value: text or a number (escaped), markup, a list of markup, or nothing (null, false). */
export type HtmlValue = string | number | Html | readonly Html[] | null | false;

function insert(value: HtmlValue): string {
  if (value === null || value === false) return '';
  if (value instanceof Html) return value.text;
  if (typeof value === 'number') return escapeHtml(String(value));
  if (typeof value === 'string') return escapeHtml(value);
  return value.map((part) => part.text).join('');
}

/** html`<p>${text}</p>`: the template's own markup, and each value escaped unless it is markup. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  let text = strings[0] ?? '';
  values.forEach((value, i) => {
    text += insert(value) + (strings[i + 1] ?? '');
  });
  return new Html(text);
}
