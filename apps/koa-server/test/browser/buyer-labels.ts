/**
 * The names the buyer's pages show (docs/protocol.md#buyer-links), written out here rather than
 * imported from packages/service/src/buyer/page-texts.ts, so that a string changed by mistake fails
 * a test (as console-labels.ts does for the console).
 */

export type BuyerLang = 'en' | 'fr';

export interface BuyerLabels {
  readonly keyTitle: (product: string) => string;
  readonly sitesTitle: string;
  /** A bound domain's field, as a screen reader names it: its visible label and the domain. */
  readonly newDomain: (domain: string) => string;
  readonly move: (domain: string) => string;
  readonly free: (domain: string) => string;
  readonly sitesUsed: (used: number, sites: number) => string;
  readonly transfersLeft: (left: number) => string;
  readonly noTransfersLeft: string;
  readonly problemTitle: string;
  readonly doneTitle: string;
  readonly newKey: string;
  readonly shownOnce: string;
  readonly ends: Readonly<
    Record<'invalid' | 'expired' | 'key-ended' | 'limit' | 'origin' | 'too-many-requests', string>
  >;
  readonly contact: (author: string) => string;
}

const NBSP = '\u00a0';

const EN: BuyerLabels = {
  keyTitle: (product) => `Your licence key for ${product}`,
  sitesTitle: 'Your sites',
  newDomain: (domain) => `New domain for ${domain}`,
  move: (domain) => `Move this site for ${domain}`,
  free: (domain) => `Free this site for ${domain}`,
  sitesUsed: (used, sites) => `${used} of ${sites}${NBSP}${sites === 1 ? 'site' : 'sites'} used`,
  transfersLeft: (left) => `${left}${NBSP}${left === 1 ? 'transfer' : 'transfers'} left in these 30 days`,
  noTransfersLeft: 'This key has no transfer left in these 30 days',
  problemTitle: 'The transfer was not made',
  doneTitle: 'Your new key',
  newKey: 'New key',
  shownOnce: 'Copy it now: it is shown only once, and this page cannot show it again.',
  ends: {
    invalid: 'This link is not valid',
    expired: 'This link has expired',
    'key-ended': 'This key is no longer active',
    limit: 'No transfer left for now',
    origin: 'The form was refused',
    'too-many-requests': 'Too many requests',
  },
  contact: (author) => `To get help, contact ${author}, who sold you the product.`,
};

const FR: BuyerLabels = {
  keyTitle: (product) => `Votre clé de licence pour ${product}`,
  sitesTitle: 'Vos sites',
  newDomain: (domain) => `Nouveau domaine pour ${domain}`,
  move: (domain) => `Déplacer ce site pour ${domain}`,
  free: (domain) => `Libérer ce site pour ${domain}`,
  sitesUsed: (used, sites) =>
    `${used} ${used > 1 ? 'utilisés' : 'utilisé'} sur ${sites}${NBSP}${sites === 1 ? 'site' : 'sites'}`,
  transfersLeft: (left) => `${left}${NBSP}${left === 1 ? 'transfert' : 'transferts'} sur ces 30${NBSP}jours`,
  noTransfersLeft: `Cette clé n’a plus de transfert sur ces 30${NBSP}jours`,
  problemTitle: 'Le transfert n’a pas été fait',
  doneTitle: 'Votre nouvelle clé',
  newKey: 'Nouvelle clé',
  shownOnce: `Copiez-la maintenant${NBSP}: elle n’est affichée qu’une fois, et cette page ne pourra plus la montrer.`,
  ends: {
    invalid: 'Ce lien n’est pas valable',
    expired: 'Ce lien a expiré',
    'key-ended': 'Cette clé n’est plus active',
    limit: 'Plus de transfert possible pour le moment',
    origin: 'Le formulaire a été refusé',
    'too-many-requests': 'Trop de demandes',
  },
  contact: (author) => `Pour obtenir de l’aide, contactez ${author}, qui vous a vendu le produit.`,
};

export function buyerLabels(lang: BuyerLang): BuyerLabels {
  return lang === 'fr' ? FR : EN;
}
