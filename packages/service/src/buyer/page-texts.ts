import type { BuyerEndReason, BuyerLanguage, BuyerProblemCode } from './page-views.js';

/**
 * The words of the buyer's pages (docs/protocol.md#buyer-links), in French and in English, and the
 * dates in each. Plain text: page.ts escapes every string it puts in the page, these
 * included. French puts a no-break space before `:` and `?` (the console's catalogs do too).
 */

export interface BuyerTexts {
  /** The banner's name of the pages. */
  readonly brand: string;
  readonly keyTitle: (product: string) => string;
  readonly summaryLabel: string;
  readonly keyLabel: string;
  readonly statusLabel: string;
  readonly active: string;
  readonly trialUntil: (date: string) => string;
  readonly sitesLabel: string;
  readonly sitesUsed: (used: number, sites: number) => string;
  readonly transfersLabel: string;
  readonly transfersLeft: (left: number) => string;
  readonly linkLabel: string;
  readonly linkUntil: (date: string) => string;
  readonly explanation: readonly string[];
  readonly sitesTitle: string;
  readonly noSites: string;
  readonly noTransfersLeft: string;
  readonly firstSeen: string;
  readonly lastSeen: string;
  readonly moveTitle: string;
  readonly newDomain: string;
  /** Said after a field's or button's visible name to screen readers, which list them out of context. */
  readonly forDomain: (domain: string) => string;
  readonly newDomainHint: string;
  readonly moveButton: string;
  readonly freeTitle: string;
  readonly freeHint: (domain: string) => string;
  readonly freeButton: string;
  readonly problemTitle: string;
  readonly problems: Readonly<Record<BuyerProblemCode, string>>;
  readonly serviceSaid: string;
  readonly doneTitle: string;
  readonly doneIntro: (product: string) => string;
  readonly newKeyLabel: string;
  readonly shownOnce: string;
  readonly nextTitle: string;
  readonly nextSteps: (product: string, to: string | null, from: string | null, within: string) => readonly string[];
  readonly linkEnded: string;
  readonly endTitles: Readonly<Record<BuyerEndReason, string>>;
  readonly endSentences: Readonly<Record<BuyerEndReason, string>>;
  readonly contact: (author: string | undefined) => string;
  /** too-many-requests: when to come back (`wait`: "42 seconds"). */
  readonly retryIn: (wait: string) => string;
  readonly hours: (n: number) => string;
  readonly minutes: (n: number) => string;
  readonly seconds: (n: number) => string;
}

const plural = (n: number, one: string, other: string): string => `${n}\u00a0${n === 1 ? one : other}`;

const EN: BuyerTexts = {
  brand: 'Your licence',
  keyTitle: (product) => `Your licence key for ${product}`,
  summaryLabel: 'Your key',
  keyLabel: 'Key',
  statusLabel: 'Status',
  active: 'Active',
  trialUntil: (date) => `Trial until ${date}`,
  sitesLabel: 'Sites',
  sitesUsed: (used, sites) => `${used} of ${plural(sites, 'site', 'sites')} used`,
  transfersLabel: 'Transfers left',
  transfersLeft: (left) => `${plural(left, 'transfer', 'transfers')} left in these 30 days`,
  linkLabel: 'This link',
  linkUntil: (date) => `Works until ${date}`,
  explanation: [
    'Moving a site to a new domain, or freeing a site, is a transfer: your key is replaced by a new one, shown once on the next page.',
    'The old key then stops working: the sites that use it stop within 24 hours, until the new key is entered in their settings.',
  ],
  sitesTitle: 'Your sites',
  noSites: 'No site uses this key yet. It is bound to a site the first time the product checks it there.',
  noTransfersLeft: 'This key has no transfer left in these 30 days: its sites cannot be moved or freed here for now.',
  firstSeen: 'First seen',
  lastSeen: 'Last seen',
  moveTitle: 'Move to a new domain',
  newDomain: 'New domain',
  forDomain: (domain) => ` for ${domain}`,
  newDomainHint: 'For example shop.example.com, without https://',
  moveButton: 'Move this site',
  freeTitle: 'Free this site',
  freeHint: (domain) => `The key stops working on ${domain}, and its place is free for another site.`,
  freeButton: 'Free this site',
  problemTitle: 'The transfer was not made',
  problems: {
    'not-bound': 'This site is no longer bound to the key: the page below shows the sites as they are now.',
    'too-many-domains': 'The key would hold more sites than it allows.',
    'bad-domain': 'The new domain is not a valid host name. Enter a domain such as shop.example.com.',
  },
  serviceSaid: 'The service said:',
  doneTitle: 'Your new key',
  doneIntro: (product) => `The transfer is done. Here is your new licence key for ${product}.`,
  newKeyLabel: 'New key',
  shownOnce: 'Copy it now: it is shown only once, and this page cannot show it again.',
  nextTitle: 'What to do now',
  nextSteps: (product, to, from, within) => [
    'Select the key above and copy it, then keep it somewhere safe.',
    to === null
      ? `Paste it in the settings of ${product} on each site that should keep working.`
      : `Paste it in the settings of ${product} on the new site, ${to}, and on each other site that should keep working.`,
    from === null
      ? `The old key stops working within ${within}.`
      : `The old key stops working within ${within}: ${from} stops with it.`,
  ],
  linkEnded: 'The link to this page ended with the old key: ask the seller for a new one if you need it.',
  endTitles: {
    invalid: 'This link is not valid',
    expired: 'This link has expired',
    'key-ended': 'This key is no longer active',
    limit: 'No transfer left for now',
    origin: 'The form was refused',
    'too-many-requests': 'Too many requests',
  },
  endSentences: {
    invalid: 'The link may be incomplete: check that you opened it whole, as you received it.',
    expired: 'Links to this page work for a limited time. Ask for a new one.',
    'key-ended':
      'The key was replaced, transferred or revoked, or its trial ended, and its link ended with it. If you received a new key, ask for a new link.',
    limit: 'This key has used every transfer that can be made here in 30 days.',
    origin: 'The form was not sent from this page. Open your link again, then try once more.',
    'too-many-requests':
      'These pages were asked for too often from your connection in a short time, so this request was not looked at.',
  },
  contact: (author) =>
    author === undefined
      ? 'To get help, contact the seller of the product.'
      : `To get help, contact ${author}, who sold you the product.`,
  retryIn: (wait) => `Wait ${wait}, then open your link again.`,
  hours: (n) => plural(n, 'hour', 'hours'),
  minutes: (n) => plural(n, 'minute', 'minutes'),
  seconds: (n) => plural(n, 'second', 'seconds'),
};

const FR: BuyerTexts = {
  brand: 'Votre licence',
  keyTitle: (product) => `Votre clé de licence pour ${product}`,
  summaryLabel: 'Votre clé',
  keyLabel: 'Clé',
  statusLabel: 'État',
  active: 'Active',
  trialUntil: (date) => `Essai jusqu’au ${date}`,
  sitesLabel: 'Sites',
  sitesUsed: (used, sites) => `${used} ${used > 1 ? 'utilisés' : 'utilisé'} sur ${plural(sites, 'site', 'sites')}`,
  transfersLabel: 'Transferts restants',
  transfersLeft: (left) => `${plural(left, 'transfert', 'transferts')} sur ces 30\u00a0jours`,
  linkLabel: 'Ce lien',
  linkUntil: (date) => `Valable jusqu’au ${date}`,
  explanation: [
    'Déplacer un site vers un nouveau domaine, ou libérer un site, est un transfert\u00a0: votre clé est remplacée par une nouvelle, affichée une seule fois à la page suivante.',
    'L’ancienne clé cesse alors de fonctionner\u00a0: les sites qui l’utilisent s’arrêtent dans les 24\u00a0heures, tant que la nouvelle clé n’est pas saisie dans leurs réglages.',
  ],
  sitesTitle: 'Vos sites',
  noSites:
    'Aucun site n’utilise encore cette clé. Elle est liée à un site la première fois que le produit la vérifie sur ce site.',
  noTransfersLeft:
    'Cette clé n’a plus de transfert sur ces 30\u00a0jours\u00a0: ses sites ne peuvent pas être déplacés ni libérés ici pour le moment.',
  firstSeen: 'Vu la première fois',
  lastSeen: 'Vu la dernière fois',
  moveTitle: 'Déplacer vers un nouveau domaine',
  newDomain: 'Nouveau domaine',
  forDomain: (domain) => ` pour ${domain}`,
  newDomainHint: 'Par exemple boutique.exemple.fr, sans https://',
  moveButton: 'Déplacer ce site',
  freeTitle: 'Libérer ce site',
  freeHint: (domain) => `La clé cesse de fonctionner sur ${domain}, et sa place est libre pour un autre site.`,
  freeButton: 'Libérer ce site',
  problemTitle: 'Le transfert n’a pas été fait',
  problems: {
    'not-bound':
      'Ce site n’est plus lié à la clé\u00a0: la page ci-dessous montre les sites tels qu’ils sont maintenant.',
    'too-many-domains': 'La clé aurait plus de sites qu’elle n’en permet.',
    'bad-domain': 'Le nouveau domaine n’est pas un nom d’hôte valable. Saisissez un domaine comme boutique.exemple.fr.',
  },
  serviceSaid: 'Le service a répondu (en anglais)\u00a0:',
  doneTitle: 'Votre nouvelle clé',
  doneIntro: (product) => `Le transfert est fait. Voici votre nouvelle clé de licence pour ${product}.`,
  newKeyLabel: 'Nouvelle clé',
  shownOnce: 'Copiez-la maintenant\u00a0: elle n’est affichée qu’une fois, et cette page ne pourra plus la montrer.',
  nextTitle: 'Que faire maintenant\u00a0?',
  nextSteps: (product, to, from, within) => [
    'Sélectionnez la clé ci-dessus et copiez-la, puis gardez-la en lieu sûr.',
    to === null
      ? `Collez-la dans les réglages de ${product} sur chaque site qui doit continuer à fonctionner.`
      : `Collez-la dans les réglages de ${product} sur le nouveau site, ${to}, et sur chaque autre site qui doit continuer à fonctionner.`,
    from === null
      ? `L’ancienne clé cesse de fonctionner dans les ${within}.`
      : `L’ancienne clé cesse de fonctionner dans les ${within}\u00a0: ${from} s’arrête avec elle.`,
  ],
  linkEnded:
    'Le lien de cette page a pris fin avec l’ancienne clé\u00a0: demandez-en un nouveau au vendeur si vous en avez besoin.',
  endTitles: {
    invalid: 'Ce lien n’est pas valable',
    expired: 'Ce lien a expiré',
    'key-ended': 'Cette clé n’est plus active',
    limit: 'Plus de transfert possible pour le moment',
    origin: 'Le formulaire a été refusé',
    'too-many-requests': 'Trop de demandes',
  },
  endSentences: {
    invalid:
      'Le lien est peut-être incomplet\u00a0: vérifiez que vous l’avez ouvert en entier, tel que vous l’avez reçu.',
    expired: 'Les liens vers cette page fonctionnent pendant un temps limité. Demandez-en un nouveau.',
    'key-ended':
      'La clé a été remplacée, transférée ou révoquée, ou son essai a pris fin, et son lien a pris fin avec elle. Si vous avez reçu une nouvelle clé, demandez un nouveau lien.',
    limit: 'Cette clé a utilisé tous les transferts qui peuvent être faits ici sur 30\u00a0jours.',
    origin: 'Le formulaire n’a pas été envoyé depuis cette page. Ouvrez de nouveau votre lien, puis réessayez.',
    'too-many-requests':
      'Ces pages ont été demandées trop souvent depuis votre connexion en peu de temps\u00a0: cette demande n’a pas été examinée.',
  },
  contact: (author) =>
    author === undefined
      ? 'Pour obtenir de l’aide, contactez le vendeur du produit.'
      : `Pour obtenir de l’aide, contactez ${author}, qui vous a vendu le produit.`,
  retryIn: (wait) => `Attendez ${wait}, puis ouvrez de nouveau votre lien.`,
  hours: (n) => plural(n, 'heure', 'heures'),
  minutes: (n) => plural(n, 'minute', 'minutes'),
  seconds: (n) => plural(n, 'seconde', 'secondes'),
};

export const BUYER_TEXTS: Readonly<Record<BuyerLanguage, BuyerTexts>> = { en: EN, fr: FR };

const LOCALES: Readonly<Record<BuyerLanguage, string>> = { en: 'en-GB', fr: 'fr-FR' };

/**
 * A Unix-seconds instant as a day (`withTime`: and the time, then "UTC"), in the page's language.
 * UTC, said so when the time shows: the server cannot know the buyer's time zone, and the page
 * runs no script to ask.
 */
export function formatDate(seconds: number, lang: BuyerLanguage, withTime = false): string {
  const date = new Date(seconds * 1000);
  const options: Intl.DateTimeFormatOptions = withTime
    ? { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }
    : { dateStyle: 'long', timeZone: 'UTC' };
  const text = new Intl.DateTimeFormat(LOCALES[lang], options).format(date);
  return withTime ? `${text} UTC` : text;
}

/** A short wait in seconds as seconds under a minute, else as formatDelay says it: "42 seconds". */
export function formatWait(seconds: number, texts: BuyerTexts): string {
  return seconds < 60 ? texts.seconds(Math.max(1, Math.ceil(seconds))) : formatDelay(seconds, texts);
}

/** A delay in seconds as hours (rounded up), or minutes under an hour: "24 hours". */
export function formatDelay(seconds: number, texts: BuyerTexts): string {
  return seconds >= 3600 ? texts.hours(Math.ceil(seconds / 3600)) : texts.minutes(Math.max(1, Math.ceil(seconds / 60)));
}
