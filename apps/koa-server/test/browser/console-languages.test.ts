import { beforeAll, describe, expect, test } from 'vitest';
import { addAuthorWithToken, addProduct, issueKey, revokeKey } from './api-setup.js';
import { browserSkipReason, PHONE } from './browser.js';
import { type Lang, labelsOf } from './console-labels.js';
import { checkPage, closeClean, goTo, openConsole, signIn, tableRecords } from './console-page.js';
import { askVerdict } from './console-server.js';
import { consoleSuite } from './console-suite.js';
import { evidence } from './evidence.js';

/**
 * French and English (docs/protocol.md#console): the language the browser asks for
 * (Accept-Language), the switch, every page of the console in French (the English ones are the
 * operator's and the author's test files), and a phone's screen. Each page is screenshot, checked
 * with axe and for text of the other language (console-page.ts checkPage).
 */
describe.skipIf(browserSkipReason() !== undefined)('the console in French and English', () => {
  const suite = consoleSuite();
  let key = { cle: '', hint: '' };

  beforeAll(async () => {
    await addAuthorWithToken(suite, 'atelier', 'Atelier Dupont');
    await addProduct(suite, 'theme-fr', 'atelier', 'Mon thème');
    key = await issueKey(suite, 'theme-fr');
    const revoked = await issueKey(suite, 'theme-fr');
    await revokeKey(suite, revoked.cle);
    await askVerdict(suite.server, key.cle, 'https://www.exemple.fr/');
    await askVerdict(suite.server, key.cle, 'http://localhost/');
    await askVerdict(suite.server, revoked.cle, 'https://autre.exemple/');
  });

  test('the page takes its language from Accept-Language; the switch turns it and is remembered', async () => {
    for (const [accept, lang] of [
      ['fr-FR,fr;q=0.9,en;q=0.5', 'fr'],
      ['en-US,en;q=0.9', 'en'],
      ['de-DE', 'en'],
    ] as const) {
      const response = await fetch(`${suite.server.url}/console`, { headers: { 'accept-language': accept } });
      expect(response.status).toBe(200);
      expect(await response.text()).toMatch(new RegExp(`<html lang="${lang}"`));
      // docs/protocol.md#console: the console's headers.
      expect(response.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
      expect(response.headers.get('x-frame-options')).toBe('DENY');
    }

    const tab = await openConsole(suite.browser, suite.server, 'en');
    const { page } = tab;
    const heading = (lang: Lang) =>
      page.getByRole('heading', { level: 1, name: labelsOf(lang).signInTitle, exact: true });
    await heading('en').waitFor();
    await page.getByRole('button', { name: 'FR', exact: true }).click();
    await heading('fr').waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('fr');
    expect(await page.getByRole('button', { name: 'FR', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await evidence(page, 'fr-sign-in-switched');
    await page.reload();
    await heading('fr').waitFor();
    await page.getByRole('button', { name: 'EN', exact: true }).click();
    await heading('en').waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    await closeClean(tab, suite.secrets);
  });

  test('every page of the console in French', async () => {
    const tab = await openConsole(suite.browser, suite.server, 'fr');
    const { page, ui } = tab;
    await page.getByRole('heading', { level: 1, name: ui.signInTitle, exact: true }).waitFor();
    await checkPage(tab, 'fr-sign-in');
    await signIn(tab, suite.server.operatorToken);
    await page.getByText(ui.signedInOperator, { exact: true }).waitFor();
    await expect.poll(() => tableRecords(page, ui.productsCaption)).toHaveLength(1);
    await checkPage(tab, 'fr-products');

    await goTo(tab, '#/products/theme-fr', ui.productTitle('theme-fr'));
    await page.getByRole('img', { name: ui.chartTitle('theme-fr', 30), exact: true }).waitFor();
    const days = await tableRecords(page, ui.activityCaption('theme-fr', 30));
    expect(days.at(-1)).toMatchObject({
      [ui.outcomeOk]: '1',
      [ui.outcomeEssai]: '1',
      [ui.outcomeRevocation]: '1',
      [ui.total]: '3',
    });
    await page.getByText(ui.installationsCount(1), { exact: true }).waitFor();
    await checkPage(tab, 'fr-product');

    await goTo(tab, '#/keys', ui.keysTitle);
    await page.getByLabel(ui.licenceKey, { exact: true }).fill(key.cle);
    await page.getByRole('button', { name: ui.findKey, exact: true }).click();
    await page.getByRole('heading', { level: 2, name: ui.keyTitle(key.hint), exact: true }).waitFor();
    await checkPage(tab, 'fr-key');
    await page.getByRole('button', { name: ui.revoke, exact: true }).click();
    await page.getByRole('dialog', { name: ui.revokeTitle, exact: true }).waitFor();
    await checkPage(tab, 'fr-key-revoke-dialog');
    await page.keyboard.press('Escape');

    await goTo(tab, '#/authors', ui.authorsTitle);
    await page.getByRole('link', { name: ui.tokensOf('atelier'), exact: true }).waitFor();
    await checkPage(tab, 'fr-authors');
    await goTo(tab, '#/authors/atelier', ui.tokensOf('atelier'));
    await expect
      .poll(async () => (await tableRecords(page, ui.tokensCaption)).map((row) => row[ui.tokenLabel]))
      .toEqual(['tests']);
    await checkPage(tab, 'fr-author-tokens');
    await goTo(tab, '#/purge', ui.purgeTitle);
    await checkPage(tab, 'fr-purge');
    await goTo(tab, '#/nulle-part', ui.missingTitle);
    await checkPage(tab, 'fr-missing');
    await closeClean(tab, suite.secrets);
  });

  test('a phone screen: no page wider than the screen', async () => {
    const tab = await openConsole(suite.browser, suite.server, 'fr', { viewport: PHONE });
    const { page, ui } = tab;
    const pageWidth = () => page.evaluate<number>('document.documentElement.scrollWidth');
    await page.getByRole('heading', { level: 1, name: ui.signInTitle, exact: true }).waitFor();
    expect(await pageWidth()).toBeLessThanOrEqual(PHONE.width);
    await checkPage(tab, 'fr-phone-sign-in');
    await signIn(tab, suite.server.operatorToken);
    await expect.poll(() => tableRecords(page, ui.productsCaption)).toHaveLength(1);
    expect(await pageWidth()).toBeLessThanOrEqual(PHONE.width);
    await checkPage(tab, 'fr-phone-products');
    await goTo(tab, '#/products/theme-fr', ui.productTitle('theme-fr'));
    await page.getByRole('img', { name: ui.chartTitle('theme-fr', 30), exact: true }).waitFor();
    await page.getByText(ui.installationsCount(1), { exact: true }).waitFor();
    expect(await pageWidth()).toBeLessThanOrEqual(PHONE.width);
    await checkPage(tab, 'fr-phone-product');
    await closeClean(tab, suite.secrets);
  });
});
