import { describe, expect, it } from 'vitest';
import { BUYER_PAGE_HEADERS, BUYER_STYLESHEET, renderBuyerPage } from './page.js';
import type { BuyerEndReason, BuyerKeyView } from './page-views.js';

// docs/protocol.md#buyer-links: the buyer's pages as HTML. What a browser makes of them (axe, a
// phone's width, forms without JavaScript) is tested in apps/koa-server/test/browser.

// 2025-03-14T09:30:00Z and two days later, as Unix seconds.
const T = 1_741_944_600;
const DAY = 86_400;

const KEY: BuyerKeyView = {
  kind: 'key',
  productName: 'Crochet',
  produit: 'crochet',
  authorName: 'Atelier Dupont',
  hint: 'WXYZ',
  expiresAt: null,
  domains: [
    { domain: 'shop.example', firstSeen: T, lastSeen: T + 2 * DAY },
    { domain: 'blog.example', firstSeen: T + DAY, lastSeen: T + DAY },
  ],
  sites: 3,
  transfersLeft: 2,
  linkExpires: T + 3 * DAY,
  action: 'tok123/transfer',
};

/** The elements whose opening tag matches `pattern`. */
const tags = (page: string, pattern: RegExp): string[] =>
  [...page.matchAll(/<[a-z0-9]+\b[^>]*>/g)].map((match) => match[0]).filter((tag) => pattern.test(tag));

describe('renderBuyerPage: the key page', () => {
  it('is a whole document in the page language with one h1, landmarks and the relative style sheet', () => {
    const page = renderBuyerPage(KEY, 'en');
    expect(page.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(page.match(/<h1>/g)?.length).toBe(1);
    expect(page).toContain('<h1>Your licence key for Crochet</h1>');
    expect(page).toContain('<header>');
    expect(page).toContain('<main>');
    expect(page).toContain('<link rel="stylesheet" href="buyer.css">');
    expect(page).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    // No script of any kind, and nothing from another origin.
    expect(page).not.toMatch(/<script|javascript:|(?:src|href|action)="(?:https?:)?\/\//i);
  });

  it('shows the hint, the status, the allowance, the transfers left and the link’s end', () => {
    const page = renderBuyerPage(KEY, 'en');
    expect(page).toContain('<dt>Key</dt><dd><code>…WXYZ</code></dd>');
    expect(page).toContain('<dt>Status</dt><dd>Active</dd>');
    expect(page).toContain('<dt>Sites</dt><dd>2 of 3\u00a0sites used</dd>');
    expect(page).toContain('<dd>2\u00a0transfers left in these 30 days</dd>');
    expect(page).toContain('<dd>Works until 17 March 2025 at 09:30 UTC</dd>');
    expect(page).toContain('the sites that use it stop within 24 hours');
  });

  it('says a trial’s end, in French with French dates', () => {
    const page = renderBuyerPage({ ...KEY, expiresAt: T + 7 * DAY, domains: KEY.domains.slice(0, 1) }, 'fr');
    expect(page.startsWith('<!doctype html>\n<html lang="fr">')).toBe(true);
    expect(page).toContain('<h1>Votre clé de licence pour Crochet</h1>');
    expect(page).toContain('<dt>État</dt><dd>Essai jusqu’au 21 mars 2025 à 09:30 UTC</dd>');
    expect(page).toContain('<dd>1 utilisé sur 3\u00a0sites</dd>');
    expect(page).toContain('<time datetime="2025-03-14T09:30:00.000Z">14 mars 2025</time>');
  });

  it('gives each domain its dates and two forms posted to the action: move (a labelled `to`) and free', () => {
    const page = renderBuyerPage(KEY, 'en');
    expect(page).toContain('<h3 id="site-1">shop.example</h3>');
    expect(page).toContain('<dt>Last seen</dt><dd><time datetime="2025-03-16T09:30:00.000Z">16 March 2025</time>');
    expect(tags(page, /^<form/)).toEqual(Array(4).fill('<form method="post" action="tok123/transfer">'));
    expect(tags(page, /name="from"/)).toEqual([
      '<input type="hidden" name="from" value="shop.example">',
      '<input type="hidden" name="from" value="shop.example">',
      '<input type="hidden" name="from" value="blog.example">',
      '<input type="hidden" name="from" value="blog.example">',
    ]);
    expect(tags(page, /name="to"/).length).toBe(2);
    expect(page).toContain(
      '<label for="to-2">New domain<span class="visually-hidden"> for blog.example</span></label>',
    );
    expect(tags(page, /id="to-1"/)[0]).toContain('aria-describedby="to-1-hint"');
    expect(page).not.toContain('aria-invalid');
  });

  it('shows no form without a transfer left, and says why', () => {
    const page = renderBuyerPage({ ...KEY, transfersLeft: 0 }, 'en');
    expect(tags(page, /^<form/)).toEqual([]);
    expect(page).toContain('This key has no transfer left in these 30 days');
    expect(page).toContain('contact Atelier Dupont, who sold you the product.');
    expect(page).toContain('<h3 id="site-1">shop.example</h3>');
  });

  it('says that no site uses a key without domains, with no form', () => {
    const page = renderBuyerPage({ ...KEY, domains: [] }, 'fr');
    expect(page).toContain('Aucun site n’utilise encore cette clé.');
    expect(tags(page, /^<form/)).toEqual([]);
  });

  it('puts a refused form’s message above the forms as an alert, and marks and refills its field', () => {
    const problem = {
      code: 'bad-domain',
      detail: 'to: expected a host name',
      from: 'blog.example',
      to: 'x y',
    } as const;
    const page = renderBuyerPage({ ...KEY, problem, place: 'transfer', action: 'transfer' }, 'fr');
    const alert = page.indexOf('role="alert"');
    expect(alert).toBeGreaterThan(page.indexOf('<h1>'));
    expect(alert).toBeLessThan(page.indexOf('<form'));
    expect(page).toContain('<span lang="en">to: expected a host name</span>');
    expect(page).toContain('n’est pas un nom d’hôte valable');
    const invalid = tags(page, /aria-invalid/);
    expect(invalid.length).toBe(1);
    expect(invalid[0]).toContain('id="to-2"');
    expect(invalid[0]).toContain('value="x y"');
    expect(invalid[0]).toContain('aria-describedby="to-2-hint problem"');
    // Answered to POST /buyer/:token/transfer: the links are one level up.
    expect(page).toContain('<link rel="stylesheet" href="../buyer.css">');
    expect(tags(page, /^<form/)[0]).toBe('<form method="post" action="transfer">');
  });

  it('marks no field when the domain is no longer bound', () => {
    const problem = { code: 'not-bound', detail: 'from: not bound', from: 'shop.example' } as const;
    const page = renderBuyerPage({ ...KEY, problem }, 'en');
    expect(page).toContain('This site is no longer bound to the key');
    expect(page).not.toContain('aria-invalid');
  });

  it('escapes every value from the store and from the form', () => {
    const hostile = '<img src=x onerror=alert(1)>"\'&';
    const page = renderBuyerPage(
      {
        ...KEY,
        productName: hostile,
        domains: [{ domain: hostile, firstSeen: T, lastSeen: T }],
        action: '"><script>',
        problem: { code: 'bad-domain', detail: hostile, from: hostile, to: hostile },
      },
      'en',
    );
    expect(page).not.toContain('<img');
    expect(page).not.toContain('<script');
    expect(page).not.toMatch(/value="[^"]*'[^"]*"/);
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;');
  });
});

describe('renderBuyerPage: the done page', () => {
  const done = {
    kind: 'done',
    productName: 'Crochet',
    cle: 'ABCDE-FGHIJ-KLMNO-PQRST',
    from: 'shop.example',
    to: 'new.example',
    oldSiteStopsWithin: DAY,
  } as const;

  it('shows the new key once in its own block, says so, and says what to do', () => {
    const page = renderBuyerPage(done, 'en');
    expect(page).toContain('<h1>Your new key</h1>');
    expect(page).toContain('<p class="new-key" id="new-key">ABCDE-FGHIJ-KLMNO-PQRST</p>');
    expect(page.split('ABCDE-FGHIJ-KLMNO-PQRST').length).toBe(2);
    expect(page).toContain('Copy it now: it is shown only once');
    expect(page).toContain('on the new site, new.example, and on each other site');
    expect(page).toContain('The old key stops working within 24\u00a0hours: shop.example stops with it.');
    // Always answered to POST /buyer/:token/transfer.
    expect(page).toContain('<link rel="stylesheet" href="../buyer.css">');
  });

  it('after freeing a site, in French, with a delay under an hour in minutes', () => {
    const page = renderBuyerPage({ ...done, to: null, oldSiteStopsWithin: 90 }, 'fr');
    expect(page).toContain('<h1>Votre nouvelle clé</h1>');
    expect(page).toContain('sur chaque site qui doit continuer à fonctionner');
    expect(page).toContain('dans les 2\u00a0minutes\u00a0: shop.example s’arrête avec elle.');
  });
});

describe('renderBuyerPage: the end pages', () => {
  const reasons: readonly BuyerEndReason[] = [
    'invalid',
    'expired',
    'key-ended',
    'limit',
    'origin',
    'too-many-requests',
  ];

  it.each(reasons)('%s: a title of its own and who to contact, in both languages', (reason) => {
    for (const lang of ['en', 'fr'] as const) {
      const page = renderBuyerPage({ kind: 'end', reason }, lang);
      expect(page.match(/<h1>/g)?.length).toBe(1);
      expect(page).toMatch(lang === 'en' ? /contact the seller of the product/ : /contactez le vendeur du produit/);
      expect(tags(page, /^<form/)).toEqual([]);
    }
    const titles = reasons.map((other) => /<h1>(.*)<\/h1>/.exec(renderBuyerPage({ kind: 'end', reason: other }, 'en')));
    expect(new Set(titles.map((title) => title?.[1])).size).toBe(reasons.length);
  });

  it('names the author when known, escaped', () => {
    const page = renderBuyerPage({ kind: 'end', reason: 'limit', authorName: 'Dupont & <Fils>' }, 'en');
    expect(page).toContain('<h1>No transfer left for now</h1>');
    expect(page).toContain('contact Dupont &amp; &lt;Fils&gt;, who sold you the product.');
  });

  it('says when to come back after too many requests, in seconds under a minute, in both languages', () => {
    const en = renderBuyerPage({ kind: 'end', reason: 'too-many-requests', retryAfter: 42 }, 'en');
    expect(en).toContain('<h1>Too many requests</h1>');
    expect(en).toContain('<p>Wait 42\u00a0seconds, then open your link again.</p>');
    expect(en).not.toContain('contact the seller');
    const fr = renderBuyerPage({ kind: 'end', reason: 'too-many-requests', retryAfter: 60, place: 'transfer' }, 'fr');
    expect(fr).toContain('<html lang="fr">');
    expect(fr).toContain('<h1>Trop de demandes</h1>');
    expect(fr).toContain('<p>Attendez 1\u00a0minute, puis ouvrez de nouveau votre lien.</p>');
    expect(fr).toContain('href="../buyer.css"');
    expect(renderBuyerPage({ kind: 'end', reason: 'too-many-requests', retryAfter: 1 }, 'fr')).toContain(
      'Attendez 1\u00a0seconde,',
    );
  });

  it('links the style sheet one level up when answered to a POST', () => {
    expect(renderBuyerPage({ kind: 'end', reason: 'origin', place: 'transfer' }, 'en')).toContain(
      'href="../buyer.css"',
    );
    expect(renderBuyerPage({ kind: 'end', reason: 'expired' }, 'en')).toContain('href="buyer.css"');
  });
});

describe('BUYER_PAGE_HEADERS and BUYER_STYLESHEET', () => {
  it('forbid scripts, other origins, framing and caching, and keep the token out of a Referer', () => {
    const csp = BUYER_PAGE_HEADERS['Content-Security-Policy'] ?? '';
    const directives = Object.fromEntries(csp.split(';').map((part) => part.trim().split(' ') as [string, string]));
    expect(directives).toEqual({
      'default-src': "'none'",
      'style-src': "'self'",
      'img-src': "'self'",
      'form-action': "'self'",
      'frame-ancestors': "'none'",
      'base-uri': "'none'",
    });
    expect(BUYER_PAGE_HEADERS['X-Frame-Options']).toBe('DENY');
    expect(BUYER_PAGE_HEADERS['X-Content-Type-Options']).toBe('nosniff');
    expect(BUYER_PAGE_HEADERS['Referrer-Policy']).toBe('strict-origin');
    expect(BUYER_PAGE_HEADERS['Cross-Origin-Opener-Policy']).toBe('same-origin');
    expect(BUYER_PAGE_HEADERS['Cross-Origin-Resource-Policy']).toBe('same-origin');
    expect(BUYER_PAGE_HEADERS['Cache-Control']).toBe('no-store');
  });

  it('the style sheet loads nothing else and styles every class the pages use', () => {
    expect(BUYER_STYLESHEET).not.toMatch(/@import|url\(/);
    const page = renderBuyerPage({ ...KEY, problem: { code: 'bad-domain', detail: 'x' } }, 'en');
    const done = renderBuyerPage(
      { kind: 'done', productName: 'P', cle: 'K', from: null, to: null, oldSiteStopsWithin: DAY },
      'en',
    );
    const classes = new Set([...(page + done).matchAll(/class="([^"]+)"/g)].flatMap((m) => (m[1] ?? '').split(' ')));
    for (const name of classes) expect(BUYER_STYLESHEET).toContain(`.${name}`);
  });
});
