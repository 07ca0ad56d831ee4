import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '@licence/pg-cluster';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createWebhookReceiver, type WebhookReceiver } from '../webhook-receiver.js';
import { browserSkipReason, DESKTOP, PHONE } from './browser.js';
import type { BuyerLang } from './buyer-labels.js';
import {
  type BuyerTab,
  checkBuyerPage,
  closeBuyerTab,
  freeSite,
  moveSite,
  openBuyerTab,
  relinked,
  shownKey,
  site,
  submit,
  visit,
} from './buyer-tab.js';
import { adminOk, askVerdict } from './console-server.js';
import { consoleSuite } from './console-suite.js';

/**
 * The buyer's pages (docs/protocol.md#buyer-links) in Debian's Chromium against a real `licence
 * serve`: the author's shop asks for a link through the admin API, the buyer opens it, moves a site
 * and sees the new key once; the old key then answers `transfert` and the new one `ok` on the new
 * domain, and the shop's receiver gets `key.transferred` from the buyer. The same without
 * JavaScript; a refused form; the pages of a link that is invalid, expired, dead with its key, sent
 * from another site, and of a lineage out of transfers; each in English and French, at a phone's
 * and a desktop's width, screenshot and axe-checked.
 */

/** The server's signing seed, given as an operator gives it, so the test can sign an expired link. */
const SEED = randomBytes(32);
const PRODUCT = { id: 'crochet', name: 'Crochet' } as const;
const AUTHOR = { id: 'atelier', name: 'Atelier Dupont' } as const;
const TEST_TIMEOUT = 180_000;
// Deliveries happen in the background (a round a second): polls wait generously, for a loaded CI.
const SLOW = { timeout: 30_000, interval: 250 } as const;

/** The four ways every page is looked at. */
const LOOKS: readonly { readonly lang: BuyerLang; readonly viewport: typeof DESKTOP | typeof PHONE }[] = [
  { lang: 'en', viewport: DESKTOP },
  { lang: 'en', viewport: PHONE },
  { lang: 'fr', viewport: DESKTOP },
  { lang: 'fr', viewport: PHONE },
];

describe.skipIf(browserSkipReason() !== undefined)('the buyer’s pages', () => {
  // TRUST_PROXY=loopback: each tab is a client address of its own (openBuyerTab), under the limit.
  const suite = consoleSuite({
    LICENCE_WEBHOOK_ALLOW_PRIVATE: '1',
    LICENCE_SIGNING_KEY: SEED.toString('base64'),
    TRUST_PROXY: 'loopback',
  });
  const { keys, tokens } = suite.secrets;
  let shop: WebhookReceiver;
  let authorToken = '';
  let elsewhere: Server | undefined;

  beforeAll(async () => {
    tokens.push(SEED.toString('base64'));
    const { server } = suite;
    shop = createWebhookReceiver(await freePort());
    await shop.listen();
    await adminOk(server, server.operatorToken, 'POST', '/admin/authors', AUTHOR);
    const created = await adminOk(server, server.operatorToken, 'POST', `/admin/authors/${AUTHOR.id}/tokens`, {
      label: 'shop',
    });
    authorToken = String(created.token);
    tokens.push(authorToken);
    await adminOk(server, server.operatorToken, 'POST', '/admin/products', { ...PRODUCT, author: AUTHOR.id });
    const endpoint = await adminOk(server, authorToken, 'POST', '/admin/webhooks', {
      url: shop.url,
      events: ['key.transferred'],
    });
    tokens.push(String(endpoint.secret));
    shop.trust(String(endpoint.secret));
  });

  afterAll(async () => {
    await shop?.close();
    await new Promise<void>((resolve) => (elsewhere === undefined ? resolve() : elsewhere.close(() => resolve())));
    expect(shop?.rejected ?? []).toEqual([]);
  });

  /** A buyer key of `sites` sites, used on each of `domains` (a verdict binds each one). */
  async function boundKey(sites: number, domains: readonly string[]): Promise<string> {
    const { server } = suite;
    const issued = await adminOk(server, authorToken, 'POST', '/admin/keys', {
      produit: PRODUCT.id,
      kind: 'buyer',
      sites,
    });
    const cle = String(issued.cle);
    keys.push(cle);
    for (const domain of domains) {
      const answer = await askVerdict(server, cle, `https://${domain}/`);
      const donnees = (answer.body?.donnees ?? {}) as Record<string, unknown>;
      // A real domain, bound (a test or staging host would answer `essai` true and bind nothing).
      expect([donnees.ok, donnees.essai], `a verdict on ${domain}`).toEqual([true, false]);
    }
    return cle;
  }

  /** The key's buyer link, asked by the author's shop; its token is kept as a secret. */
  async function buyerLink(cle: string): Promise<string> {
    const { server } = suite;
    const answer = await adminOk(server, authorToken, 'POST', `/admin/keys/${encodeURIComponent(cle)}/buyer-link`, {});
    const url = String(answer.url);
    const token = url.slice(`${server.url}/buyer/`.length);
    expect(url.startsWith(`${server.url}/buyer/`) && token.length > 20 && !token.includes('/')).toBe(true);
    tokens.push(token);
    return url;
  }

  /** The verdict's `donnees` for `cle` on `domain`. */
  async function verdict(cle: string, domain: string): Promise<Record<string, unknown>> {
    const answer = await askVerdict(suite.server, cle, `https://${domain}/`);
    expect(answer.status).toBe(200);
    return (answer.body?.donnees ?? {}) as Record<string, unknown>;
  }

  /** The `key.transferred` the shop got for the old key `hint` (polled: deliveries run in the background). */
  async function transferredEvent(hint: string): Promise<Readonly<Record<string, unknown>>> {
    const find = () => shop.received.find((event) => event.type === 'key.transferred' && event.data.hint === hint);
    await expect.poll(() => find() !== undefined, SLOW).toBe(true);
    return find()?.data ?? {};
  }

  /**
   * Moves the key's site from `first` to each of `domains` in turn, each time through the page of a
   * new link to the key the last transfer made, which says one transfer less is left; the last key.
   */
  async function transferThrough(
    tab: BuyerTab,
    cle: string,
    first: string,
    domains: readonly string[],
  ): Promise<string> {
    let current = cle;
    let from = first;
    for (const [i, next] of domains.entries()) {
      await visit(tab, await buyerLink(current));
      expect(await tab.page.getByText(tab.ui.transfersLeft(3 - i), { exact: true }).count()).toBe(1);
      expect(await moveSite(tab, from, next)).toBe(200);
      current = await shownKey(tab);
      keys.push(current);
      from = next;
    }
    return current;
  }

  test(
    'the shop asks for a link; the buyer moves the site and sees the new key once; old key transfert, new key ok, webhook from the buyer',
    async () => {
      const cle = await boundKey(1, ['laine-dupont.fr']);
      const link = await buyerLink(cle);
      const tab = await openBuyerTab(suite.browser, 'en');
      const { page, ui } = tab;

      const response = await page.goto(link);
      const headers = response?.headers() ?? {};
      expect(headers['content-security-policy']).toBe(
        "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      );
      expect([headers['x-frame-options'], headers['referrer-policy'], headers['cache-control']]).toEqual([
        'DENY',
        'strict-origin',
        'no-store',
      ]);
      await checkBuyerPage(tab, 'key', 200, response?.status() ?? 0, ui.keyTitle(PRODUCT.name));
      expect(await page.getByText(ui.sitesUsed(1, 1), { exact: true }).count()).toBe(1);
      expect(await page.getByText(ui.transfersLeft(3), { exact: true }).count()).toBe(1);
      expect(await site(tab, 'laine-dupont.fr').getByRole('heading', { name: 'laine-dupont.fr' }).count()).toBe(1);

      expect(await moveSite(tab, 'laine-dupont.fr', 'nouvelle-laine.fr')).toBe(200);
      await checkBuyerPage(tab, 'done', 200, 200, ui.doneTitle);
      const newKey = await shownKey(tab);
      keys.push(newKey);
      expect(newKey !== cle).toBe(true);

      const old = await verdict(cle, 'laine-dupont.fr');
      expect([old.ok, old.motif]).toEqual([false, 'transfert']);
      const renewed = await verdict(newKey, 'nouvelle-laine.fr');
      expect(renewed.ok).toBe(true);
      const data = await transferredEvent(cle.slice(-4));
      expect(data.initiatedBy).toBe('buyer');
      expect(data.cle === newKey).toBe(true);

      // The link died with the key it opened.
      const again = await visit(tab, link);
      await checkBuyerPage(tab, 'key-ended', 410, again, ui.ends['key-ended']);
      expect(await page.getByText(ui.contact(AUTHOR.name), { exact: true }).count()).toBe(1);
      await closeBuyerTab(tab, keys);
    },
    TEST_TIMEOUT,
  );

  test(
    'without JavaScript, in French on a phone: a refused domain, then a site freed and the new key shown',
    async () => {
      const cle = await boundKey(2, ['boutique-laine.fr', 'blog-laine.fr']);
      const link = await buyerLink(cle);
      const tab = await openBuyerTab(suite.browser, 'fr', { viewport: PHONE, javaScript: false });
      const { page, ui } = tab;
      await checkBuyerPage(tab, 'key', 200, await visit(tab, link), ui.keyTitle(PRODUCT.name));
      expect(await page.getByText(ui.sitesUsed(2, 2), { exact: true }).count()).toBe(1);

      // A domain the service refuses: the page again, the message above the forms, the field marked.
      expect(await moveSite(tab, 'blog-laine.fr', 'pas un domaine')).toBe(400);
      await checkBuyerPage(tab, 'refused', 400, 400, ui.keyTitle(PRODUCT.name));
      expect(((await page.getByRole('alert').textContent()) ?? '').includes(ui.problemTitle)).toBe(true);
      const field = site(tab, 'blog-laine.fr').getByLabel(ui.newDomain('blog-laine.fr'), { exact: true });
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      expect(await field.inputValue()).toBe('pas un domaine');
      const other = site(tab, 'boutique-laine.fr').getByLabel(ui.newDomain('boutique-laine.fr'), { exact: true });
      expect(await other.getAttribute('aria-invalid')).toBe(null);
      expect((await verdict(cle, 'blog-laine.fr')).ok).toBe(true);

      // The refused page's forms post from one level deeper: freeing works from there too.
      expect(await freeSite(tab, 'blog-laine.fr')).toBe(200);
      await checkBuyerPage(tab, 'done', 200, 200, ui.doneTitle);
      const newKey = await shownKey(tab);
      keys.push(newKey);
      expect((await verdict(cle, 'boutique-laine.fr')).motif).toBe('transfert');
      expect((await verdict(newKey, 'boutique-laine.fr')).ok).toBe(true);
      const data = await transferredEvent(cle.slice(-4));
      expect([data.initiatedBy, data.cle === newKey]).toEqual(['buyer', true]);
      await closeBuyerTab(tab, keys);
    },
    TEST_TIMEOUT,
  );

  test(
    'every page in both languages at both widths: key, refused, done, invalid, expired, key ended, another site’s form, too many requests',
    async () => {
      const { server } = suite;
      elsewhere = await otherSite();
      for (const look of LOOKS) {
        const cle = await boundKey(3, ['laine-dupont.fr', 'blog-laine.fr']);
        const link = await buyerLink(cle);
        const tab = await openBuyerTab(suite.browser, look.lang, { viewport: look.viewport });
        const { ui } = tab;
        await checkBuyerPage(tab, 'key', 200, await visit(tab, link), ui.keyTitle(PRODUCT.name));
        expect(await moveSite(tab, 'laine-dupont.fr', 'shop example')).toBe(400);
        await checkBuyerPage(tab, 'refused', 400, 400, ui.keyTitle(PRODUCT.name));

        // A form on another site that posts to the link: refused, and the key is untouched.
        const port = (elsewhere.address() as AddressInfo).port;
        await visit(tab, `http://127.0.0.1:${port}/?action=${encodeURIComponent(`${link}/transfer`)}`);
        const sent = await submit(tab, tab.page.getByRole('button', { name: 'Send', exact: true }));
        await checkBuyerPage(tab, 'origin', 403, sent, ui.ends.origin);
        expect((await verdict(cle, 'blog-laine.fr')).ok).toBe(true);

        await visit(tab, link);
        expect(await moveSite(tab, 'laine-dupont.fr', 'nouvelle-laine.fr')).toBe(200);
        await checkBuyerPage(tab, 'done', 200, 200, ui.doneTitle);
        keys.push(await shownKey(tab));
        await checkBuyerPage(tab, 'key-ended', 410, await visit(tab, link), ui.ends['key-ended']);

        const live = await buyerLink(await boundKey(1, []));
        const expired = relinked(live, SEED, Math.floor(Date.now() / 1000) - 60);
        tokens.push(expired.slice(`${server.url}/buyer/`.length));
        await checkBuyerPage(tab, 'expired', 410, await visit(tab, expired), ui.ends.expired);
        // Re-signed with the seed it was signed with and its own expiry, the link opens: the
        // expired page came from the expiry alone.
        const same = relinked(live, SEED, expiryOf(live));
        expect(await visit(tab, same)).toBe(200);
        const forged = relinked(live, randomBytes(32), Math.floor(Date.now() / 1000) + 3600);
        tokens.push(forged.slice(`${server.url}/buyer/`.length));
        await checkBuyerPage(tab, 'invalid', 404, await visit(tab, forged), ui.ends.invalid);

        // Regenerated by the author: the key's link ends with it.
        const regenerated = await boundKey(1, ['regeneree.fr']);
        const regeneratedLink = await buyerLink(regenerated);
        const renewed = await adminOk(
          server,
          authorToken,
          'POST',
          `/admin/keys/${encodeURIComponent(regenerated)}/regenerate`,
          {},
        );
        keys.push(String(renewed.cle));
        expect(await visit(tab, regeneratedLink)).toBe(410);
        expect(await tab.page.getByRole('heading', { level: 1, name: ui.ends['key-ended'] }).count()).toBe(1);

        // Past the address's budget (docs/protocol.md#buyer-links: 30 in 60 s), the wait page.
        let status = 0;
        for (let i = 0; i < 40 && status !== 429; i += 1) status = await visit(tab, forged);
        await checkBuyerPage(tab, 'too-many-requests', 429, status, ui.ends['too-many-requests']);
        await closeBuyerTab(tab, keys);
      }
    },
    TEST_TIMEOUT,
  );

  test(
    'the fourth buyer transfer in 30 days is refused: no form on the key’s page, and the limit page',
    async () => {
      const setup = await openBuyerTab(suite.browser, 'en');
      const cle = await boundKey(1, ['premier-site.fr']);
      const last = await transferThrough(setup, cle, 'premier-site.fr', [
        'deuxieme-site.fr',
        'troisieme-site.fr',
        'quatrieme-site.fr',
      ]);
      await closeBuyerTab(setup, keys);
      const link = await buyerLink(last);
      for (const look of LOOKS) {
        const tab = await openBuyerTab(suite.browser, look.lang, { viewport: look.viewport });
        const { page, ui } = tab;
        await checkBuyerPage(tab, 'no-transfer-left', 200, await visit(tab, link), ui.keyTitle(PRODUCT.name));
        expect(await page.getByText(ui.transfersLeft(0), { exact: true }).count()).toBe(1);
        expect(((await page.locator('main').textContent()) ?? '').includes(ui.noTransfersLeft)).toBe(true);
        expect(await page.locator('form').count()).toBe(0);
        // A form from before the limit (an old tab): the page it posts to says to contact the author.
        await page.evaluate(`(() => {
          const form = document.createElement('form');
          form.method = 'post';
          form.action = location.pathname.split('/').pop() + '/transfer';
          const from = Object.assign(document.createElement('input'), { type: 'hidden', name: 'from', value: 'quatrieme-site.fr' });
          const button = Object.assign(document.createElement('button'), { type: 'submit', textContent: 'Old form' });
          form.append(from, button);
          document.querySelector('main').append(form);
        })()`);
        const status = await submit(tab, page.getByRole('button', { name: 'Old form', exact: true }));
        await checkBuyerPage(tab, 'limit', 429, status, ui.ends.limit);
        expect(await page.getByText(ui.contact(AUTHOR.name), { exact: true }).count()).toBe(1);
        expect((await verdict(last, 'quatrieme-site.fr')).ok).toBe(true);
        await closeBuyerTab(tab, keys);
      }
    },
    TEST_TIMEOUT,
  );
});

/** A link's expiry, read from its token's payload (`<expiry>.<key id>.<hint>`). */
function expiryOf(link: string): number {
  const token = link.split('/buyer/')[1] ?? '';
  return Number(
    Buffer.from(token.split('.')[0] ?? '', 'base64url')
      .toString('utf8')
      .split('.')[0],
  );
}

/**
 * Another site on loopback (another port, so another origin): a page with a form that posts a
 * transfer to the buyer link named in its query, as a hostile page would.
 */
async function otherSite(): Promise<Server> {
  const server = createServer((request, response) => {
    const action = new URL(request.url ?? '/', 'http://127.0.0.1').searchParams.get('action') ?? '';
    const escaped = action.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><html lang="en"><head><title>Elsewhere</title></head><body><main><h1>Elsewhere</h1>` +
        `<form method="post" action="${escaped}"><input type="hidden" name="from" value="laine-dupont.fr">` +
        `<button type="submit">Send</button></form></main></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
