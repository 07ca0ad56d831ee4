import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { addAuthorWithToken, addProduct, issueKey, revokeKey } from './api-setup.js';
import { browserSkipReason, PHONE } from './browser.js';
import type { Lang } from './console-labels.js';
import {
  type ConsoleTab,
  checkPage,
  closeClean,
  goTo,
  openConsole,
  signIn,
  waitForAlert,
  waitForStatus,
} from './console-page.js';
import { adminOk, askVerdict } from './console-server.js';
import { consoleSuite } from './console-suite.js';

/**
 * The console's staging hosts (docs/protocol.md#staging-hosts, #console) and buyer links
 * (#buyer-links) against the real server: patterns saved on a product's page as the service stores
 * them, listed on the products page after a reload, and taking effect (a verdict on such a host is
 * `essai`, nothing bound); a pattern the service refuses, its detail next to the field; a product
 * created with its patterns on a phone's screen; a buyer link made on the Keys page, shown once,
 * that opens the buyer's page. English and French.
 */

// French typography: a no-break space (U+00A0) before « : ».
const nbsp = '\u00a0';

/** The names of these pages, written out (not imported from the catalogs: console-labels.ts says why). */
interface StagingLabels {
  readonly title: string;
  readonly field: string;
  readonly save: string;
  saved(id: string, count: number): string;
  /** The 400 of a bad pattern: the sentence, then the service's English detail, which names the field. */
  readonly refused: RegExp;
  readonly buyerLinkTitle: string;
  readonly ttl: string;
  readonly sevenDays: string;
  readonly createBuyerLink: string;
  readonly buyerLinkCreated: string;
  buyerLink(hint: string): string;
  /** The line under the link; its date is in the reader's time zone and language. */
  readonly until: RegExp;
}

const LABELS: Readonly<Record<Lang, StagingLabels>> = {
  en: {
    title: 'Staging hosts',
    field: 'Staging host patterns',
    save: 'Save the staging hosts',
    saved: (id, count) => `Staging hosts of ${id} saved: ${count}.`,
    refused: /^The service refused the request\. Detail: staging\S*: .+$/,
    buyerLinkTitle: 'Buyer link',
    ttl: 'Valid for',
    sevenDays: '7 days',
    createBuyerLink: 'Create a buyer link',
    buyerLinkCreated: 'Buyer link created. Copy it now: it will not be shown again.',
    buyerLink: (hint) => `Buyer link for key …${hint}`,
    until: /^Valid until .+\. A new link can be created at any time; the key’s end ends its links\.$/,
  },
  fr: {
    title: 'Hôtes de préproduction',
    field: 'Motifs d’hôtes de préproduction',
    save: 'Enregistrer les hôtes de préproduction',
    saved: (id, count) => `Hôtes de préproduction de ${id} enregistrés${nbsp}: ${count}.`,
    refused: new RegExp(`^Le service a refusé la requête\\. Détail \\(en anglais\\)${nbsp}: staging\\S*: .+$`),
    buyerLinkTitle: 'Lien acheteur',
    ttl: 'Valable pendant',
    sevenDays: '7 jours',
    createBuyerLink: 'Créer un lien acheteur',
    buyerLinkCreated: `Lien acheteur créé. Copiez-le maintenant${nbsp}: il ne sera plus affiché.`,
    buyerLink: (hint) => `Lien acheteur pour la clé …${hint}`,
    until: new RegExp(
      `^Valable jusqu’au .+\\. Un nouveau lien peut être créé à tout moment${nbsp}; la fin de la clé met fin à ses liens\\.$`,
    ),
  },
};

/** The staging patterns a product's row lists on the products page, or its one cell's text when none. */
async function listedPatterns(page: Page, caption: string, id: string): Promise<string[]> {
  const table = page.getByRole('table', { name: caption, exact: true });
  await table.and(page.locator('table:not([aria-busy="true"])')).waitFor();
  const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: id, exact: true }) });
  const items = row.getByRole('listitem');
  if ((await items.count()) > 0) return items.allTextContents();
  return [((await row.getByRole('cell').last().textContent()) ?? '').trim()];
}

/** A product's staging list as the admin API answers it now. */
async function storedPatterns(suite: ReturnType<typeof consoleSuite>, id: string): Promise<unknown> {
  const list = await adminOk(suite.server, suite.server.operatorToken, 'GET', '/admin/products');
  const products = list.products as { id: string; staging: unknown }[];
  return products.find((product) => product.id === id)?.staging;
}

/** What a screen reader reads with a field: the text of each element its aria-describedby names. */
async function description(page: Page, field: ReturnType<Page['getByRole']>): Promise<string> {
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ').filter((id) => id !== '');
  const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
  return texts.join(' ');
}

/** Saves the box's text on a product's page and waits for the success of `count` patterns. */
async function saveStaging(tab: ConsoleTab, id: string, text: string, count: number): Promise<void> {
  const words = LABELS[tab.lang];
  await tab.page.getByRole('textbox', { name: words.field, exact: true }).fill(text);
  await tab.page.getByRole('button', { name: words.save, exact: true }).click();
  await waitForStatus(tab.page, words.saved(id, count));
}

const TEST_TIMEOUT = 90_000;

describe.skipIf(browserSkipReason() !== undefined)('the console’s staging hosts and buyer links', () => {
  const suite = consoleSuite();
  let authorToken = '';

  beforeAll(async () => {
    authorToken = await addAuthorWithToken(suite, 'atelier', 'Atelier Dupont');
    await addProduct(suite, 'crochet', 'atelier', 'Crochet');
    await addProduct(suite, 'tricot', 'atelier', 'Tricot');
  });

  test(
    'an author saves its product’s patterns: stored normalised, listed after a reload, and a verdict there is essai with nothing bound (English)',
    async () => {
      const tab = await openConsole(suite.browser, suite.server, 'en');
      const { page, ui } = tab;
      const words = LABELS.en;
      await signIn(tab, authorToken);
      await goTo(tab, '#/products', ui.productsTitle);
      expect(await listedPatterns(page, ui.productsCaption, 'crochet')).toEqual([ui.productStagingNone]);
      await goTo(tab, '#/products/crochet', ui.productTitle('crochet'));
      await page.getByRole('heading', { level: 2, name: words.title, exact: true }).waitFor();
      const box = page.getByRole('textbox', { name: words.field, exact: true });
      expect(await box.inputValue()).toBe('');

      // As the service stores them: lower case, the trailing dot gone, the blank line dropped.
      await saveStaging(tab, 'crochet', '*.Crochet.DEV\n\n staging-*.shop.example.\n', 2);
      expect(await box.inputValue()).toBe('*.crochet.dev\nstaging-*.shop.example');
      expect(await storedPatterns(suite, 'crochet')).toEqual(['*.crochet.dev', 'staging-*.shop.example']);
      await checkPage(tab, 'staging-saved');

      // The token is in the tab's sessionStorage: a reload keeps the session, and shows what is stored.
      await page.reload();
      await page.getByRole('button', { name: ui.signOut, exact: true }).waitFor();
      await goTo(tab, '#/products', ui.productsTitle);
      expect(await listedPatterns(page, ui.productsCaption, 'crochet')).toEqual([
        '*.crochet.dev',
        'staging-*.shop.example',
      ]);
      expect(await listedPatterns(page, ui.productsCaption, 'tricot')).toEqual([ui.productStagingNone]);
      await checkPage(tab, 'staging-products');
      await goTo(tab, '#/products/crochet', ui.productTitle('crochet'));
      await expect.poll(() => box.inputValue()).toBe('*.crochet.dev\nstaging-*.shop.example');

      // The patterns take effect: a site on such a host is a trial, and takes none of the key's sites.
      const key = await issueKey(suite, 'crochet');
      for (const url of ['https://feature-1.crochet.dev/', 'https://staging-42.shop.example/wp-admin/']) {
        const verdict = await askVerdict(suite.server, key.cle, url);
        expect(verdict.status).toBe(200);
        expect(verdict.body?.donnees).toMatchObject({ ok: true, essai: true, motif: '' });
      }
      const shown = await adminOk(suite.server, authorToken, 'GET', `/admin/keys/${encodeURIComponent(key.cle)}`);
      expect(shown.domains).toEqual([]);
      await closeClean(tab, suite.secrets);
    },
    TEST_TIMEOUT,
  );

  test(
    'a pattern the service refuses: its detail next to the field and in the alert, nothing changed; then fixed, then cleared (French)',
    async () => {
      const tab = await openConsole(suite.browser, suite.server, 'fr');
      const { page, ui } = tab;
      const words = LABELS.fr;
      await signIn(tab, suite.server.operatorToken);
      await goTo(tab, '#/products/tricot', ui.productTitle('tricot'));
      const box = page.getByRole('textbox', { name: words.field, exact: true });
      expect(await box.getAttribute('aria-invalid')).toBeNull();

      // A star outside the leftmost label.
      await box.fill('preprod.tricot.example\nstaging.*.tricot.example');
      await page.getByRole('button', { name: words.save, exact: true }).click();
      await waitForAlert(page, words.refused);
      expect(await box.getAttribute('aria-invalid')).toBe('true');
      // The field's description: its hint, then the refusal, the detail marked as English.
      expect(await description(page, box)).toMatch(new RegExp(`${words.refused.source.slice(1, -1)}$`));
      const detail = page.locator('.field-error [lang="en"]');
      expect(((await detail.textContent()) ?? '').startsWith('staging')).toBe(true);
      // What was typed stays, to be fixed; nothing was stored.
      expect(await box.inputValue()).toBe('preprod.tricot.example\nstaging.*.tricot.example');
      expect(await storedPatterns(suite, 'tricot')).toEqual([]);
      await checkPage(tab, 'fr-staging-refused');

      await saveStaging(tab, 'tricot', 'preprod.tricot.example\n*.tricot.example', 2);
      expect(await box.getAttribute('aria-invalid')).toBeNull();
      expect(await page.locator('.field-error').count()).toBe(0);
      expect(await storedPatterns(suite, 'tricot')).toEqual(['preprod.tricot.example', '*.tricot.example']);
      await checkPage(tab, 'fr-staging-saved');

      // An empty box clears the list.
      await saveStaging(tab, 'tricot', '', 0);
      expect(await storedPatterns(suite, 'tricot')).toEqual([]);
      await goTo(tab, '#/products', ui.productsTitle);
      expect(await listedPatterns(page, ui.productsCaption, 'tricot')).toEqual([ui.productStagingNone]);
      await checkPage(tab, 'fr-staging-products');
      await closeClean(tab, suite.secrets);
    },
    TEST_TIMEOUT,
  );

  test(
    'a product created with its patterns on a phone’s screen; a bad one refuses the product (English)',
    async () => {
      const tab = await openConsole(suite.browser, suite.server, 'en', { viewport: PHONE });
      const { page, ui } = tab;
      const words = LABELS.en;
      const pageWidth = () => page.evaluate<number>('document.documentElement.scrollWidth');
      await signIn(tab, suite.server.operatorToken);
      await goTo(tab, '#/products', ui.productsTitle);
      const create = async (id: string, staging: string) => {
        await page.getByLabel(ui.productId, { exact: true }).fill(id);
        await page.getByLabel(ui.productName, { exact: true }).fill(`Product ${id}`);
        await page.getByLabel(ui.productAuthor, { exact: true }).fill('atelier');
        await page.getByRole('textbox', { name: words.field, exact: true }).fill(staging);
        await page.getByRole('button', { name: ui.createProduct, exact: true }).click();
      };

      await create('broderie', '*.broderie.dev\nbad..host.example');
      await waitForAlert(page, words.refused);
      expect(await storedPatterns(suite, 'broderie')).toBeUndefined();

      await create('dentelle', 'Preview-*.Dentelle.example\n*.dentelle.dev');
      await waitForStatus(page, ui.productCreated('dentelle'));
      expect(await page.getByRole('textbox', { name: words.field, exact: true }).inputValue()).toBe('');
      await expect
        .poll(() => listedPatterns(page, ui.productsCaption, 'dentelle'))
        .toEqual(['preview-*.dentelle.example', '*.dentelle.dev']);
      expect(await pageWidth()).toBeLessThanOrEqual(PHONE.width);
      await checkPage(tab, 'phone-staging-products');
      await goTo(tab, '#/products/dentelle', ui.productTitle('dentelle'));
      await page.getByRole('heading', { level: 2, name: words.title, exact: true }).waitFor();
      expect(await pageWidth()).toBeLessThanOrEqual(PHONE.width);
      await checkPage(tab, 'phone-staging-product');
      await closeClean(tab, suite.secrets);
    },
    TEST_TIMEOUT,
  );

  test(
    'a buyer link made on the Keys page: shown once with its expiry, copied, and it opens the buyer’s page; none for a dead key (English)',
    async () => {
      const key = await issueKey(suite, 'crochet');
      const tab = await openConsole(suite.browser, suite.server, 'en');
      const { page, ui } = tab;
      const words = LABELS.en;
      await tab.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url });
      await signIn(tab, suite.server.operatorToken);
      const find = async () => {
        await goTo(tab, '#/keys', ui.keysTitle);
        await page.getByLabel(ui.licenceKey, { exact: true }).fill(key.cle);
        await page.getByRole('button', { name: ui.findKey, exact: true }).click();
        await page.getByRole('heading', { level: 2, name: ui.keyTitle(key.hint), exact: true }).waitFor();
      };
      await find();
      await page.getByRole('heading', { level: 2, name: words.buyerLinkTitle, exact: true }).waitFor();
      await page.getByLabel(words.ttl, { exact: true }).selectOption({ label: words.sevenDays });
      await page.getByRole('button', { name: words.createBuyerLink, exact: true }).click();
      await waitForStatus(page, words.buyerLinkCreated);
      const field = page.getByRole('textbox', { name: words.buyerLink(key.hint), exact: true });
      const url = await field.inputValue();
      // The link holds the buyer's token: a secret for the checks, never printed.
      suite.secrets.tokens.push(url, url.slice(url.lastIndexOf('/') + 1));
      expect(url.startsWith(`${suite.server.url}/buyer/`) && url.length > `${suite.server.url}/buyer/`.length).toBe(
        true,
      );
      expect(await field.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
      await page.getByText(words.until).waitFor();
      await page.getByRole('button', { name: ui.copy, exact: true }).click();
      await waitForStatus(page, ui.copiedOrSelected);
      expect((await page.evaluate<string>('navigator.clipboard.readText()')) === url).toBe(true);
      await checkPage(tab, 'buyer-link');

      // The link opens the buyer's page (the service's, docs/protocol.md#buyer-links).
      const opened = await fetch(url, { headers: { accept: 'text/html' } });
      expect(opened.status).toBe(200);
      expect(opened.headers.get('content-type')?.startsWith('text/html')).toBe(true);

      await page.getByRole('button', { name: ui.done, exact: true }).click();
      await field.waitFor({ state: 'detached' });
      const html = await page.evaluate<string>('document.documentElement.outerHTML');
      expect(html.includes(url)).toBe(false);

      // A revoked key offers no buyer link.
      await revokeKey(suite, key.cle);
      await find();
      await page.getByText(ui.statusRevoked, { exact: true }).first().waitFor();
      expect(await page.getByRole('heading', { name: words.buyerLinkTitle, exact: true }).count()).toBe(0);
      await closeClean(tab, suite.secrets);
    },
    TEST_TIMEOUT,
  );
});
