/**
 * What the buyer's pages show (docs/protocol.md#buyer-links): the service (routes.ts) decides
 * which page a request gets and fills one of these; page.ts renders it as HTML in the
 * buyer's language. Plain data: no key, no token beyond the form's own action.
 */

/** The page's language (Accept-Language, French or English). */
export type BuyerLanguage = 'fr' | 'en';

export interface BuyerDomainView {
  /** The bound registrable domain. */
  readonly domain: string;
  /** Unix seconds. */
  readonly firstSeen: number;
  readonly lastSeen: number;
}

/**
 * Where a page is answered, which its relative links (the stylesheet, a form's action) depend on:
 * `GET /buyer/:token` ('page', the default) or `POST /buyer/:token/transfer` ('transfer', one
 * level deeper: the stylesheet is then `../buyer.css`, and the form's action `transfer`).
 */
export type BuyerPagePlace = 'page' | 'transfer';

/** GET /buyer/:token on a live key: the key and the forms that move or free a site. */
export interface BuyerKeyView {
  readonly kind: 'key';
  /** The product's name, and its id. */
  readonly productName: string;
  readonly produit: string;
  /** The author's name (who to contact). */
  readonly authorName: string;
  /** The key's last four characters. */
  readonly hint: string;
  /** A trial key's end (Unix seconds); null for others. */
  readonly expiresAt: number | null;
  readonly domains: readonly BuyerDomainView[];
  /** How many domains the key may bind. */
  readonly sites: number;
  /** Buyer transfers left in the current 30 days. */
  readonly transfersLeft: number;
  /** The link's own expiry (Unix seconds). */
  readonly linkExpires: number;
  /**
   * The form's action, relative to the page's own URL: `<token>/transfer` at /buyer/<token>,
   * `transfer` when the page answers a refused POST at /buyer/<token>/transfer.
   */
  readonly action: string;
  /** 'transfer' when answered to a refused POST (then `action` is `transfer`); 'page' by default. */
  readonly place?: BuyerPagePlace;
  /**
   * After a refused POST (a domain not bound, too many domains, a bad `to`): what went wrong, shown
   * above the forms, with the status the page is answered with.
   */
  readonly problem?: {
    readonly code: BuyerProblemCode;
    readonly detail: string;
    /** The refused form's fields, when they were strings: its `to` field is marked and refilled. */
    readonly from?: string;
    readonly to?: string;
  };
}

/** POST /buyer/:token/transfer that worked: the new key, shown this once. */
export interface BuyerDoneView {
  readonly kind: 'done';
  readonly productName: string;
  /** The new key in full, formatted in groups of five. */
  readonly cle: string;
  readonly from: string | null;
  readonly to: string | null;
  /** Seconds within which the old site stops (the verdict's revalidation, 86400 by default). */
  readonly oldSiteStopsWithin: number;
}

/** Why a transfer form was refused, shown on the key's page (status 409 or 400). */
export type BuyerProblemCode = 'not-bound' | 'too-many-domains' | 'bad-domain';

/** The pages that replace the key's page. */
export type BuyerEndReason =
  /** The token is malformed, forged, or signed by another key (404). */
  | 'invalid'
  /** The link is past its expiry (410). */
  | 'expired'
  /** The key was regenerated, transferred, revoked or its trial ended: the link died with it (410). */
  | 'key-ended'
  /** The lineage's buyer transfers in 30 days are used up (429): contact the author. */
  | 'limit'
  /** A POST without the page's own Origin (403). */
  | 'origin'
  /** The client address's buyer requests are over their rate limit (429): wait `retryAfter`. */
  | 'too-many-requests';

export interface BuyerEndView {
  readonly kind: 'end';
  readonly reason: BuyerEndReason;
  /** The author's name when known (limit, key-ended), to say who to contact. */
  readonly authorName?: string;
  /** 'transfer' when answered to a POST; 'page' by default. */
  readonly place?: BuyerPagePlace;
  /** too-many-requests: the whole seconds until the address may ask again (its `Retry-After`). */
  readonly retryAfter?: number;
}

export type BuyerView = BuyerKeyView | BuyerDoneView | BuyerEndView;
