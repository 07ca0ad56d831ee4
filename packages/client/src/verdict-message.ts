import type { ClientState, Donnees } from '@licence/core';

/** The languages of `message()` (docs/protocol.md#messages: French and English). */
export type Lang = 'fr' | 'en';
export const LANGS: readonly Lang[] = ['fr', 'en'];

/**
 * The sentence for the buyer (docs/protocol.md#messages: already translated, naming the domains
 * and dating the event): what the verdict says, the domains it names, the date of the event (`quand`)
 * and, when the verdict is only kept through an outage (grace), when it was last checked.
 * Dates are written out by hand in UTC, the zone `quand` is in, so the text does not depend on
 * the runtime's locale data. The PHP client writes the same words: messages.json pins both.
 */
export function verdictMessage(
  verdict: { readonly state: ClientState; readonly donnees: Donnees },
  lang: Lang,
): string {
  const { state, donnees } = verdict;
  const text = lang === 'fr' ? FRENCH : ENGLISH;
  if (state === 'lapsed') return text.lapsed;
  if (state === 'no_key') return donnees.motif === 'sans_cle' ? text.noKey : text.notAKey;
  const sentence = donnees.ok ? okSentence(donnees, text) : refusalSentence(donnees, text, lang);
  return state === 'grace' ? `${sentence} ${text.lastChecked(formatDate(donnees.emis, lang))}` : sentence;
}

interface Texts {
  readonly lapsed: string;
  readonly noKey: string;
  readonly notAKey: string;
  readonly valid: (domaine: string) => string;
  readonly trial: (hote: string) => string;
  readonly lastChecked: (date: string) => string;
  readonly otherDomain: (domains: string, hote: string) => string;
  readonly noDomain: (hote: string) => string;
  readonly transferred: (on: string) => string;
  readonly regenerated: (on: string) => string;
  readonly revoked: (on: string) => string;
  readonly expired: (on: string) => string;
  readonly unknownKey: string;
  readonly refused: (motif: string, hote: string) => string;
  readonly domains: (domains: string) => string;
  readonly on: (date: string) => string;
  readonly and: string;
}

const FRENCH: Texts = {
  lapsed:
    "Le service de licence n'a pas pu être joint : le produit continue de fonctionner et vérifiera la licence plus tard.",
  noKey: "Aucune clé de licence n'est saisie : entrez la clé reçue à l'achat dans les réglages du produit.",
  notAKey:
    "La clé saisie n'est pas une clé de licence : une clé compte 25 lettres et chiffres, sous la forme XXXXX-XXXXX-XXXXX-XXXXX-XXXXX. Vérifiez-la dans les réglages du produit.",
  valid: (domaine) => `Licence valide pour ${domaine}.`,
  trial: (hote) => `Licence en mode essai sur ${hote} (site de test ou clé de développement).`,
  lastChecked: (date) => `Le service de licence ne répond pas ; dernière vérification le ${date}.`,
  otherDomain: (domains, hote) =>
    `Cette clé de licence est déjà utilisée sur ${domains}. Transférez-la depuis votre compte pour l'utiliser sur ${hote}.`,
  noDomain: (hote) => `Cette clé de licence ne permet pas d'activer ${hote}.`,
  transferred: (on) =>
    `Cette clé de licence a été transférée vers un autre site${on}. Saisissez la nouvelle clé reçue lors du transfert.`,
  regenerated: (on) => `Cette clé de licence a été remplacée par une nouvelle clé${on}. Saisissez la nouvelle clé.`,
  revoked: (on) => `Cette clé de licence a été révoquée${on}. Contactez l'éditeur du produit.`,
  expired: (on) => `Cette clé d'essai a expiré${on}.`,
  unknownKey: "Cette clé de licence n'existe pas pour ce produit : vérifiez la clé saisie.",
  refused: (motif, hote) => `Licence refusée pour ${hote} (motif : ${motif}).`,
  domains: (domains) => `Domaines concernés : ${domains}.`,
  on: (date) => ` le ${date}`,
  and: 'et',
};

const ENGLISH: Texts = {
  lapsed: 'The licence service could not be reached: the product keeps working and will check the licence later.',
  noKey: "No licence key has been entered: enter the key you received with your purchase in the product's settings.",
  notAKey:
    "The key entered is not a licence key: a key has 25 letters and digits, in the form XXXXX-XXXXX-XXXXX-XXXXX-XXXXX. Check it in the product's settings.",
  valid: (domaine) => `Licence valid for ${domaine}.`,
  trial: (hote) => `Licence in trial mode on ${hote} (a test site or a development key).`,
  lastChecked: (date) => `The licence service is not answering; last checked on ${date}.`,
  otherDomain: (domains, hote) =>
    `This licence key is already in use on ${domains}. Transfer it from your account to use it on ${hote}.`,
  noDomain: (hote) => `This licence key cannot be activated on ${hote}.`,
  transferred: (on) =>
    `This licence key was transferred to another site${on}. Enter the new key you received with the transfer.`,
  regenerated: (on) => `This licence key was replaced by a new key${on}. Enter the new key.`,
  revoked: (on) => `This licence key was revoked${on}. Contact the product's publisher.`,
  expired: (on) => `This trial key expired${on}.`,
  unknownKey: 'This licence key does not exist for this product: check the key you entered.',
  refused: (motif, hote) => `Licence refused for ${hote} (reason: ${motif}).`,
  domains: (domains) => `Domains concerned: ${domains}.`,
  on: (date) => ` on ${date}`,
  and: 'and',
};

function okSentence(donnees: Donnees, text: Texts): string {
  if (donnees.essai) return text.trial(donnees.hote);
  return text.valid(donnees.domaine === '' ? donnees.hote : donnees.domaine);
}

function refusalSentence(donnees: Donnees, text: Texts, lang: Lang): string {
  const domains = joinDomains(donnees.domaine, text.and);
  const on = eventDate(donnees.quand, lang, text);
  const withDomains = (sentence: string) => (domains === '' ? sentence : `${sentence} ${text.domains(domains)}`);
  switch (donnees.motif) {
    case 'autre_domaine':
      return domains === '' ? text.noDomain(donnees.hote) : text.otherDomain(domains, donnees.hote);
    case 'transfert':
      return withDomains(text.transferred(on));
    case 'regeneration':
      return withDomains(text.regenerated(on));
    case 'revocation':
      return withDomains(text.revoked(on));
    case 'expiree':
      return withDomains(text.expired(on));
    case 'inconnue':
      return text.unknownKey;
    default:
      // A reason a later service may add: named as it is, never hidden; its quand, whose meaning
      // this client cannot know, is left out.
      return withDomains(text.refused(donnees.motif, donnees.hote));
  }
}

/** `domaine` is the bound domains, `", "`-joined in binding order (docs/protocol.md#verdict): "a, b and c". */
function joinDomains(domaine: string, and: string): string {
  const list = domaine.split(', ').filter((domain) => domain !== '');
  if (list.length <= 1) return list.join('');
  return `${list.slice(0, -1).join(', ')} ${and} ${list[list.length - 1] ?? ''}`;
}

const QUAND = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

/** " le 22 novembre 2026 à 10:14 UTC" from `quand` (ISO 8601 UTC, docs/protocol.md#verdict); "" when there is none. */
function eventDate(quand: string, lang: Lang, text: Texts): string {
  if (quand === '') return '';
  const match = QUAND.exec(quand);
  if (match === null) return text.on(quand);
  const [, year, month, day, hour, minute] = match;
  return text.on(writeDate(Number(year), Number(month), Number(day), `${hour ?? '00'}:${minute ?? '00'}`, lang));
}

/** A timestamp (seconds, UTC) written out: "3 janvier 2026 à 09:00 UTC", "3 January 2026 at 09:00 UTC". */
export function formatDate(seconds: number, lang: Lang): string {
  const date = new Date(seconds * 1000);
  if (Number.isNaN(date.getTime())) return String(seconds);
  const time = `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}`;
  return writeDate(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), time, lang);
}

const MONTHS: Readonly<Record<Lang, readonly string[]>> = {
  fr: [
    'janvier',
    'février',
    'mars',
    'avril',
    'mai',
    'juin',
    'juillet',
    'août',
    'septembre',
    'octobre',
    'novembre',
    'décembre',
  ],
  en: [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ],
};

function writeDate(year: number, month: number, day: number, time: string, lang: Lang): string {
  const name = MONTHS[lang][month - 1] ?? String(month);
  // French writes the first of the month as an ordinal: "1er mars".
  if (lang === 'fr') return `${day === 1 ? '1er' : String(day)} ${name} ${year} à ${time} UTC`;
  return `${day} ${name} ${year} at ${time} UTC`;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}
