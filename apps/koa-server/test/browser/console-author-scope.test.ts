import { beforeAll, describe, expect, test } from 'vitest';
import { addAuthorWithToken, addProduct, issueKey } from './api-setup.js';
import { browserSkipReason } from './browser.js';
import { waitForAlert, checkPage, closeClean, goTo, openConsole, signIn, tableRecords } from './console-page.js';
import { admin, adminOk } from './console-server.js';
import { consoleSuite } from './console-suite.js';

/**
 * Least privilege (docs/protocol.md#authors): an author's token reaches its own products and keys
 * only. Another author's product or key is a 404, in the console as in the API, exactly like a
 * missing one; the operator's routes are a 403.
 */
describe.skipIf(browserSkipReason() !== undefined)('the console, as an author (English, desktop)', () => {
  const suite = consoleSuite();
  let aliceToken = '';
  let bobKey = { cle: '', hint: '' };

  beforeAll(async () => {
    aliceToken = await addAuthorWithToken(suite, 'alice', 'Alice Martin');
    await addAuthorWithToken(suite, 'bob', 'Bob Durand');
    await addProduct(suite, 'alice-theme', 'alice', 'Thème d’Alice');
    await addProduct(suite, 'bob-theme', 'bob', 'Thème de Bob');
    await issueKey(suite, 'alice-theme');
    bobKey = await issueKey(suite, 'bob-theme');
  });

  test('an author signs in and sees only their own products, without the operator pages', async () => {
    const tab = await openConsole(suite.browser, suite.server, 'en');
    const { page, ui } = tab;
    await signIn(tab, aliceToken);
    await page.getByText(ui.signedInAuthor('Alice Martin'), { exact: true }).waitFor();
    const nav = page.getByRole('navigation', { name: ui.navLabel });
    expect(await nav.getByRole('link').allTextContents()).toEqual([
      ui.navProducts,
      ui.navKeys,
      ui.navWebhooks,
      ui.navTokens,
    ]);
    await expect
      .poll(async () => (await tableRecords(page, ui.productsCaption)).map((row) => row[ui.productId]))
      .toEqual(['alice-theme']);
    // An author creates products for themself: no author field.
    expect(await page.getByLabel(ui.productAuthor, { exact: true }).count()).toBe(0);
    await checkPage(tab, 'en-author-products');

    await goTo(tab, '#/tokens', ui.myTokens);
    await expect
      .poll(async () => (await tableRecords(page, ui.tokensCaption)).map((row) => row[ui.tokenLabel]))
      .toEqual(['tests']);
    await checkPage(tab, 'en-author-own-tokens');
    await closeClean(tab, suite.secrets);
  });

  test("another author's product and key: not found in the console, a 404 in the admin API", async () => {
    const tab = await openConsole(suite.browser, suite.server, 'en');
    const { page, ui } = tab;
    await signIn(tab, aliceToken);
    await goTo(tab, '#/products/bob-theme', ui.productTitle('bob-theme'));
    await waitForAlert(page, ui.notFound);
    // Nothing of bob's product is shown: no name, no installations, no activity, no key hint.
    expect(await page.getByText('Thème de Bob').count()).toBe(0);
    expect(await page.getByRole('table').count()).toBe(0);
    expect(await page.getByText(bobKey.hint).count()).toBe(0);
    await checkPage(tab, 'en-author-other-product');

    await goTo(tab, '#/keys', ui.keysTitle);
    // A new page clears the notices: the next alert is the key's own.
    await waitForAlert(page, '');
    await page.getByLabel(ui.licenceKey, { exact: true }).fill(bobKey.cle);
    await page.getByRole('button', { name: ui.findKey, exact: true }).click();
    await waitForAlert(page, ui.notFound);
    expect(await page.getByRole('heading', { name: ui.keyTitle(bobKey.hint) }).count()).toBe(0);

    // The operator's pages, opened by their address: refused.
    await goTo(tab, '#/authors', ui.forbiddenTitle);
    await goTo(tab, '#/purge', ui.forbiddenTitle);
    await checkPage(tab, 'en-author-forbidden');
    await closeClean(tab, suite.secrets);

    // The admin API behind it: another author's product or key is a 404, the operator's routes a 403.
    const as = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: Record<string, unknown>) =>
      admin(suite.server, aliceToken, method, path, body).then((answer) => answer.status);
    const bob = encodeURIComponent(bobKey.cle);
    expect(await as('GET', '/admin/products/bob-theme/activity')).toBe(404);
    // The same answer as a product that does not exist, detail included: nothing tells bob-theme exists.
    const other = await admin(suite.server, aliceToken, 'GET', '/admin/products/bob-theme/installations');
    const missing = await admin(suite.server, aliceToken, 'GET', '/admin/products/no-such-theme/installations');
    expect(missing.status).toBe(404);
    expect(JSON.stringify(other.body)).toBe(JSON.stringify(missing.body).replaceAll('no-such-theme', 'bob-theme'));
    expect(await as('GET', `/admin/keys/${bob}`)).toBe(404);
    expect(await as('POST', `/admin/keys/${bob}/revoke`, {})).toBe(404);
    expect(await as('POST', `/admin/keys/${bob}/regenerate`, {})).toBe(404);
    expect(await as('POST', '/admin/keys', { produit: 'bob-theme', kind: 'buyer' })).toBe(404);
    expect(await as('POST', '/admin/products', { id: 'alice-other', author: 'bob', name: 'Not mine' })).toBe(403);
    expect(await as('GET', '/admin/authors/bob/tokens')).toBe(404);
    expect(await as('GET', '/admin/authors')).toBe(403);
    expect(await as('POST', '/admin/purge')).toBe(403);
    const listed = await adminOk(suite.server, aliceToken, 'GET', '/admin/products');
    expect(listed.products).toEqual([
      { id: 'alice-theme', author: 'alice', name: 'Thème d’Alice', staging: [], installations: 0 },
    ]);
    // Bob's key is untouched.
    const shown = await adminOk(suite.server, suite.server.operatorToken, 'GET', `/admin/keys/${bob}`);
    expect(shown.status).toBe('active');
  });
});
