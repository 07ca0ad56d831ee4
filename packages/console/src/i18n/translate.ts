import type { Lang } from '../language.js';
import { en } from './en.js';
import { fr } from './fr.js';

/** Every string of the console has a key of the English catalog; the French one has the same keys. */
export type MessageKey = keyof typeof en;

export type Catalog = Readonly<Record<MessageKey, string>>;

export type Vars = Readonly<Record<string, string | number>>;

export type Translate = (key: MessageKey, vars?: Vars) => string;

export const CATALOGS: Readonly<Record<Lang, Catalog>> = { en, fr };

/** The `{name}` placeholders of a template, sorted: both catalogs must use the same ones. */
export function placeholders(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '').sort();
}

/** The template with each `{name}` replaced; a placeholder without a value stays as it is. */
export function format(template: string, vars: Vars = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = vars[name];
    return value === undefined ? whole : String(value);
  });
}

export function translator(lang: Lang): Translate {
  const catalog = CATALOGS[lang];
  return (key, vars) => format(catalog[key], vars);
}

/** Whether a key built at run time (`outcome.${motif}`) is in the catalogs. */
export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(en, key);
}

/** The label of an activity outcome (docs/protocol.md#reasons); a motif added later shows as it is sent. */
export function outcomeLabel(outcome: string, t: Translate): string {
  const key = `outcome.${outcome}`;
  return isMessageKey(key) ? t(key) : outcome;
}
