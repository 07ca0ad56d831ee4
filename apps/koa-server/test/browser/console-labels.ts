/**
 * The console's accessible names the browser tests find things by, in English and French: what a
 * user (or a screen reader) reads, written out here rather than imported from the console's
 * catalogs, so a string that changes by mistake fails a test.
 */

export type Lang = 'en' | 'fr';

export interface Labels {
  readonly appName: string;
  readonly token: string;
  readonly signInTitle: string;
  readonly signIn: string;
  readonly signOut: string;
  readonly unauthorized: string;
  /** A 404 in the alert region: the sentence, then the server's detail when it gave one. */
  readonly notFound: RegExp;
  readonly forbiddenTitle: string;
  readonly missingTitle: string;
  readonly navLabel: string;
  readonly navProducts: string;
  readonly navKeys: string;
  readonly navAuthors: string;
  readonly navTokens: string;
  readonly navPurge: string;
  readonly signedInOperator: string;
  signedInAuthor(name: string): string;
  readonly productsTitle: string;
  readonly productsCaption: string;
  readonly productId: string;
  readonly productName: string;
  readonly productAuthor: string;
  readonly productInstallations: string;
  /** The products table's column of staging host patterns, and its cell when a product has none. */
  readonly productStaging: string;
  readonly productStagingNone: string;
  readonly createProduct: string;
  productCreated(id: string): string;
  productTitle(id: string): string;
  readonly kind: string;
  readonly kindBuyer: string;
  readonly sites: string;
  readonly issueKey: string;
  readonly newKey: string;
  readonly newToken: string;
  readonly copy: string;
  readonly done: string;
  /** Either message of the Copy button: copied, or selected for Ctrl+C. */
  readonly copiedOrSelected: RegExp;
  installationsCount(count: number): string;
  installationsCaption(id: string): string;
  /** The installations table's first column: the key's hint. */
  readonly keyColumn: string;
  readonly exportCsv: string;
  chartTitle(id: string, days: number): string;
  activityCaption(id: string, days: number): string;
  periodDays(days: number): string;
  readonly outcomeOk: string;
  readonly outcomeEssai: string;
  readonly outcomeRevocation: string;
  readonly total: string;
  readonly keysTitle: string;
  readonly licenceKey: string;
  readonly findKey: string;
  keyTitle(hint: string): string;
  readonly statusActive: string;
  readonly statusRevoked: string;
  readonly domainsCaption: string;
  readonly domain: string;
  /** The notice of a revocation; its date is in the reader's time zone and language. */
  keyRevoked(hint: string): RegExp;
  readonly revoke: string;
  readonly revokeTitle: string;
  readonly revokeReason: string;
  readonly revokeConfirm: string;
  readonly statusRegenerated: string;
  readonly statusTransferred: string;
  readonly regenerate: string;
  readonly regenerateTitle: string;
  readonly regenerateConfirm: string;
  readonly keyRegenerated: string;
  readonly transfer: string;
  readonly transferTitle: string;
  readonly transferFrom: string;
  readonly transferTo: string;
  readonly transferConfirm: string;
  readonly keyTransferred: string;
  /** The Cancel button of every confirmation dialog. */
  readonly cancel: string;
  /** The warning under a key or token shown once. */
  readonly onceWarning: string;
  readonly authorsTitle: string;
  readonly authorId: string;
  readonly authorName: string;
  readonly addAuthor: string;
  authorAdded(id: string): string;
  tokensOf(id: string): string;
  readonly myTokens: string;
  readonly tokensCaption: string;
  readonly tokenLabel: string;
  readonly createToken: string;
  deleteToken(name: string): string;
  readonly deleteTokenConfirm: string;
  tokenDeleted(name: string): string;
  readonly purgeTitle: string;
  readonly purge: string;
  readonly purgeConfirm: string;
  purgeDone(erased: number): string;
  readonly navWebhooks: string;
  readonly webhooksTitle: string;
  readonly webhooksCaption: string;
  readonly webhookUrlColumn: string;
  readonly webhookAuthorColumn: string;
  readonly webhookUrl: string;
  readonly webhookAuthor: string;
  readonly everyAuthor: string;
  readonly addWebhook: string;
  readonly webhookAdded: string;
  /** The field of the secret shown once, after an endpoint is added. */
  readonly signingSecret: string;
  newSigningSecret(url: string): string;
  /** The line under a rotated secret; its date is in the reader's time zone and language. */
  readonly previousUntil: RegExp;
  readonly verifyHint: string;
  /** A refused URL: the sentence, then the service's detail (English) after its lead-in. */
  readonly urlRefused: RegExp;
  /** The visible start of each row's link and buttons; their names end with the endpoint's URL. */
  readonly deliveriesLink: string;
  readonly rotateSecret: string;
  readonly deleteWebhook: string;
  rotateSecretTitle(url: string): string;
  readonly rotateSecretConfirm: string;
  readonly secretRotated: string;
  deleteWebhookTitle(url: string): string;
  readonly deleteWebhookConfirm: string;
  webhookDeleted(url: string): string;
  readonly deliveriesTitle: string;
  /** The one sentence of a deliveries page the token cannot reach (another's endpoint, or none). */
  readonly deliveriesMissing: string;
  readonly deliveriesCaption: string;
  readonly deliveryType: string;
  readonly deliveryStatus: string;
  readonly deliveryAttempts: string;
  readonly deliveryNextAttempt: string;
  readonly delivered: string;
  readonly pending: string;
  attempts(count: number): string;
  readonly refresh: string;
  readonly retry: string;
  /** The notice of a retry; its date is in the reader's time zone and language. */
  retried(type: string): RegExp;
}

const en: Labels = {
  appName: 'Licence console',
  token: 'Token',
  signInTitle: 'Sign in',
  signIn: 'Sign in',
  signOut: 'Sign out',
  unauthorized: 'This token was not accepted. Sign in again.',
  notFound: /^Not found\.( Detail: .+)?$/,
  forbiddenTitle: 'Not allowed',
  missingTitle: 'Page not found',
  navLabel: 'Main',
  navProducts: 'Products',
  navKeys: 'Keys',
  navAuthors: 'Authors',
  navTokens: 'My tokens',
  navPurge: 'Request log',
  signedInOperator: 'Signed in as the operator',
  signedInAuthor: (name) => `Signed in as ${name}`,
  productsTitle: 'Products',
  productsCaption: 'Your products',
  productId: 'Product id',
  productName: 'Name',
  productAuthor: 'Author',
  productInstallations: 'Installations',
  productStaging: 'Staging hosts',
  productStagingNone: 'None',
  createProduct: 'Create the product',
  productCreated: (id) => `Product ${id} created.`,
  productTitle: (id) => `Product ${id}`,
  kind: 'Kind',
  kindBuyer: 'Buyer',
  sites: 'Sites',
  issueKey: 'Issue the key',
  newKey: 'New key',
  newToken: 'New token',
  copy: 'Copy',
  done: 'Done',
  copiedOrSelected:
    /^(Copied to the clipboard\.|The text is selected: press Ctrl\+C \(Cmd\+C on a Mac\) to copy it\.)$/,
  installationsCount: (count) => `Installations: ${count}`,
  installationsCaption: (id) => `Keys and bound domains of ${id}`,
  keyColumn: 'Key',
  exportCsv: 'Export as CSV',
  chartTitle: (id, days) => `Verdicts per day for ${id}, last ${days} days`,
  activityCaption: (id, days) => `Verdicts per day for ${id}, last ${days} days (UTC days)`,
  periodDays: (days) => `${days} days`,
  outcomeOk: 'Valid',
  outcomeEssai: 'Test or development',
  outcomeRevocation: 'Revoked',
  total: 'Total',
  keysTitle: 'Keys',
  licenceKey: 'Licence key',
  findKey: 'Find the key',
  keyTitle: (hint) => `Key …${hint}`,
  statusActive: 'Active',
  statusRevoked: 'Revoked',
  domainsCaption: 'Domains bound to this key',
  domain: 'Domain',
  keyRevoked: (hint) => new RegExp(`^Key …${hint} revoked \\(.+\\)\\.$`),
  revoke: 'Revoke',
  revokeTitle: 'Revoke this key?',
  revokeReason: 'Reason (optional, for your records)',
  revokeConfirm: 'Revoke the key',
  statusRegenerated: 'Regenerated',
  statusTransferred: 'Transferred',
  regenerate: 'Regenerate',
  regenerateTitle: 'Regenerate this key?',
  regenerateConfirm: 'Regenerate the key',
  keyRegenerated: 'Key regenerated. Copy the new key now: it will not be shown again.',
  transfer: 'Transfer',
  transferTitle: 'Transfer this key?',
  transferFrom: 'Domain to remove',
  transferTo: 'Domain to add',
  transferConfirm: 'Transfer the key',
  keyTransferred: 'Key transferred. Copy the new key now: it will not be shown again.',
  cancel: 'Cancel',
  onceWarning: 'It will not be shown again: copy it now and keep it safe.',
  authorsTitle: 'Authors',
  authorId: 'Author id',
  authorName: 'Name',
  addAuthor: 'Add the author',
  authorAdded: (id) => `Author ${id} added.`,
  tokensOf: (id) => `Tokens of ${id}`,
  myTokens: 'My tokens',
  tokensCaption: 'Tokens',
  tokenLabel: 'Label',
  createToken: 'Create the token',
  deleteToken: (name) => `Delete the token ${name}`,
  deleteTokenConfirm: 'Delete the token',
  tokenDeleted: (name) => `Token ${name} deleted.`,
  purgeTitle: 'Request log',
  purge: 'Purge old entries',
  purgeConfirm: 'Purge',
  purgeDone: (erased) => `Entries erased: ${erased}.`,
  navWebhooks: 'Webhooks',
  webhooksTitle: 'Webhooks',
  webhooksCaption: 'Endpoints',
  webhookUrlColumn: 'URL',
  webhookAuthorColumn: 'Author',
  webhookUrl: 'Endpoint URL',
  webhookAuthor: 'Author',
  everyAuthor: 'Every author',
  addWebhook: 'Add the endpoint',
  webhookAdded: 'Endpoint added. Copy its signing secret now: it will not be shown again.',
  signingSecret: 'Signing secret',
  newSigningSecret: (url) => `New signing secret for ${url}`,
  previousUntil: /^The previous secret keeps signing until .+\.$/,
  verifyHint: 'Verify each delivery with this secret and a Standard Webhooks library (standardwebhooks.com).',
  urlRefused: /^The service refused the request\. Detail: url: .+$/,
  deliveriesLink: 'Deliveries',
  rotateSecret: 'Rotate the secret',
  deleteWebhook: 'Delete',
  rotateSecretTitle: (url) => `Rotate the secret of ${url}?`,
  rotateSecretConfirm: 'Rotate the secret',
  secretRotated: 'Secret rotated. Copy the new one now: it will not be shown again.',
  deleteWebhookTitle: (url) => `Delete the endpoint ${url}?`,
  deleteWebhookConfirm: 'Delete the endpoint',
  webhookDeleted: (url) => `Endpoint ${url} deleted.`,
  deliveriesTitle: 'Webhook deliveries',
  deliveriesMissing: 'This endpoint does not exist, or this token has no access to it.',
  deliveriesCaption: 'Last 100 deliveries, newest first',
  deliveryType: 'Event',
  deliveryStatus: 'Status',
  deliveryAttempts: 'Attempts',
  deliveryNextAttempt: 'Next attempt',
  delivered: 'Delivered',
  pending: 'Pending',
  attempts: (count) => (count === 1 ? '1 attempt' : `${count} attempts`),
  refresh: 'Refresh',
  retry: 'Retry',
  retried: (type) => new RegExp(`^The ${type.replaceAll('.', '\\.')} delivery is due again: next attempt .+\\.$`),
};

// French typography: a no-break space (U+00A0) before « : », « ? » and « ! ».
const nbsp = '\u00a0';

const fr: Labels = {
  appName: 'Console des licences',
  token: 'Jeton',
  signInTitle: 'Connexion',
  signIn: 'Se connecter',
  signOut: 'Se déconnecter',
  unauthorized: 'Ce jeton n’a pas été accepté. Connectez-vous à nouveau.',
  notFound: new RegExp(`^Introuvable\\.( Détail${nbsp}: .+)?$`),
  forbiddenTitle: 'Action non autorisée',
  missingTitle: 'Page introuvable',
  navLabel: 'Principale',
  navProducts: 'Produits',
  navKeys: 'Clés',
  navAuthors: 'Auteurs',
  navTokens: 'Mes jetons',
  navPurge: 'Journal des requêtes',
  signedInOperator: 'Connecté en tant qu’opérateur',
  signedInAuthor: (name) => `Connecté en tant que ${name}`,
  productsTitle: 'Produits',
  productsCaption: 'Vos produits',
  productId: 'Identifiant du produit',
  productName: 'Nom',
  productAuthor: 'Auteur',
  productInstallations: 'Installations',
  productStaging: 'Hôtes de préproduction',
  productStagingNone: 'Aucun',
  createProduct: 'Créer le produit',
  productCreated: (id) => `Produit ${id} créé.`,
  productTitle: (id) => `Produit ${id}`,
  kind: 'Type',
  kindBuyer: 'Acheteur',
  sites: 'Sites',
  issueKey: 'Émettre la clé',
  newKey: 'Nouvelle clé',
  newToken: 'Nouveau jeton',
  copy: 'Copier',
  done: 'Terminé',
  copiedOrSelected: new RegExp(
    `^(Copié dans le presse-papiers\\.|Le texte est sélectionné${nbsp}: appuyez sur Ctrl\\+C \\(Cmd\\+C sur un Mac\\) pour le copier\\.)$`,
  ),
  installationsCount: (count) => `Installations${nbsp}: ${count}`,
  installationsCaption: (id) => `Clés et domaines liés de ${id}`,
  keyColumn: 'Clé',
  exportCsv: 'Exporter en CSV',
  chartTitle: (id, days) => `Verdicts par jour pour ${id}, ${days} derniers jours`,
  activityCaption: (id, days) => `Verdicts par jour pour ${id}, ${days} derniers jours (jours UTC)`,
  periodDays: (days) => `${days} jours`,
  outcomeOk: 'Valide',
  outcomeEssai: 'Test ou développement',
  outcomeRevocation: 'Révoquée',
  total: 'Total',
  keysTitle: 'Clés',
  licenceKey: 'Clé de licence',
  findKey: 'Trouver la clé',
  keyTitle: (hint) => `Clé …${hint}`,
  statusActive: 'Active',
  statusRevoked: 'Révoquée',
  domainsCaption: 'Domaines liés à cette clé',
  domain: 'Domaine',
  keyRevoked: (hint) => new RegExp(`^Clé …${hint} révoquée \\(.+\\)\\.$`),
  revoke: 'Révoquer',
  revokeTitle: `Révoquer cette clé${nbsp}?`,
  revokeReason: 'Motif (facultatif, pour vos archives)',
  revokeConfirm: 'Révoquer la clé',
  statusRegenerated: 'Régénérée',
  statusTransferred: 'Transférée',
  regenerate: 'Régénérer',
  regenerateTitle: `Régénérer cette clé${nbsp}?`,
  regenerateConfirm: 'Régénérer la clé',
  keyRegenerated: `Clé régénérée. Copiez la nouvelle clé maintenant${nbsp}: elle ne sera plus affichée.`,
  transfer: 'Transférer',
  transferTitle: `Transférer cette clé${nbsp}?`,
  transferFrom: 'Domaine à retirer',
  transferTo: 'Domaine à ajouter',
  transferConfirm: 'Transférer la clé',
  keyTransferred: `Clé transférée. Copiez la nouvelle clé maintenant${nbsp}: elle ne sera plus affichée.`,
  cancel: 'Annuler',
  onceWarning: `Cette valeur ne sera plus affichée${nbsp}: copiez-la maintenant et gardez-la en lieu sûr.`,
  authorsTitle: 'Auteurs',
  authorId: 'Identifiant de l’auteur',
  authorName: 'Nom',
  addAuthor: 'Ajouter l’auteur',
  authorAdded: (id) => `Auteur ${id} ajouté.`,
  tokensOf: (id) => `Jetons de ${id}`,
  myTokens: 'Mes jetons',
  tokensCaption: 'Jetons',
  tokenLabel: 'Libellé',
  createToken: 'Créer le jeton',
  deleteToken: (name) => `Supprimer le jeton ${name}`,
  deleteTokenConfirm: 'Supprimer le jeton',
  tokenDeleted: (name) => `Jeton ${name} supprimé.`,
  purgeTitle: 'Journal des requêtes',
  purge: 'Purger les anciennes entrées',
  purgeConfirm: 'Purger',
  purgeDone: (erased) => `Entrées supprimées${nbsp}: ${erased}.`,
  navWebhooks: 'Webhooks',
  webhooksTitle: 'Webhooks',
  webhooksCaption: 'Points de terminaison',
  webhookUrlColumn: 'URL',
  webhookAuthorColumn: 'Auteur',
  webhookUrl: 'URL du point de terminaison',
  webhookAuthor: 'Auteur',
  everyAuthor: 'Tous les auteurs',
  addWebhook: 'Ajouter le point de terminaison',
  webhookAdded: `Point de terminaison ajouté. Copiez son secret de signature maintenant${nbsp}: il ne sera plus affiché.`,
  signingSecret: 'Secret de signature',
  newSigningSecret: (url) => `Nouveau secret de signature pour ${url}`,
  previousUntil: /^L’ancien secret continue de signer jusqu’au .+\.$/,
  verifyHint: 'Vérifiez chaque livraison avec ce secret et une bibliothèque Standard Webhooks (standardwebhooks.com).',
  urlRefused: new RegExp(`^Le service a refusé la requête\\. Détail \\(en anglais\\)${nbsp}: url: .+$`),
  deliveriesLink: 'Livraisons',
  rotateSecret: 'Renouveler le secret',
  deleteWebhook: 'Supprimer',
  rotateSecretTitle: (url) => `Renouveler le secret de ${url}${nbsp}?`,
  rotateSecretConfirm: 'Renouveler le secret',
  secretRotated: `Secret renouvelé. Copiez le nouveau maintenant${nbsp}: il ne sera plus affiché.`,
  deleteWebhookTitle: (url) => `Supprimer le point de terminaison ${url}${nbsp}?`,
  deleteWebhookConfirm: 'Supprimer le point de terminaison',
  webhookDeleted: (url) => `Point de terminaison ${url} supprimé.`,
  deliveriesTitle: 'Livraisons du webhook',
  deliveriesMissing: 'Ce point de terminaison n’existe pas, ou ce jeton n’y a pas accès.',
  deliveriesCaption: 'Les 100 dernières livraisons, les plus récentes d’abord',
  deliveryType: 'Événement',
  deliveryStatus: 'État',
  deliveryAttempts: 'Tentatives',
  deliveryNextAttempt: 'Prochaine tentative',
  delivered: 'Livrée',
  pending: 'En attente',
  attempts: (count) => (count === 1 ? '1 tentative' : `${count} tentatives`),
  refresh: 'Actualiser',
  retry: 'Réessayer',
  retried: (type) =>
    new RegExp(`^La livraison ${type.replaceAll('.', '\\.')} est à nouveau due${nbsp}: prochaine tentative le .+\\.$`),
};

export function labelsOf(lang: Lang): Labels {
  return lang === 'fr' ? fr : en;
}

/**
 * The plain-text labels of the other language that differ from this one's: none of them may show
 * on a page in `lang` (no French left in the English page, no English in the French one).
 */
export function foreignLabels(lang: Lang): string[] {
  const own = new Set(Object.values(labelsOf(lang)).filter((value) => typeof value === 'string'));
  const other = labelsOf(lang === 'fr' ? 'en' : 'fr');
  return Object.values(other).filter((value): value is string => typeof value === 'string' && !own.has(value));
}
