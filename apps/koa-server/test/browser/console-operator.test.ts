import { describe, expect, test } from 'vitest';
import { addProduct, issueKey, revokeKey } from './api-setup.js';
import { browserSkipReason } from './browser.js';
import {
  type ConsoleTab,
  checkPage,
  closeClean,
  goTo,
  openConsole,
  signIn,
  tableRecords,
  waitForAlert,
  waitForStatus,
} from './console-page.js';
import { admin, adminOk, askVerdict } from './console-server.js';
import { type ConsoleSuite, consoleSuite } from './console-suite.js';

/** A licence key as the service writes it: five groups of five (docs/protocol.md#key-normalisation). */
const KEY_SHAPE = /^[0-9A-Z]{5}(-[0-9A-Z]{5}){4}$/;
/** The same shape anywhere in a text, in either case. */
const KEY_ANYWHERE = /[0-9A-Z]{5}(-[0-9A-Z]{5}){4}/i;

/** Finds a key on the Keys page, as the operator pastes it, and waits for its details. */
async function findKey(tab: ConsoleTab, key: { readonly cle: string; readonly hint: string }): Promise<void> {
  const { page, ui } = tab;
  await goTo(tab, '#/keys', ui.keysTitle);
  await page.getByLabel(ui.licenceKey, { exact: true }).fill(key.cle);
  await page.getByRole('button', { name: ui.findKey, exact: true }).click();
  await page.getByRole('heading', { level: 2, name: ui.keyTitle(key.hint), exact: true }).waitFor();
}

/**
 * The new key of a regeneration or a transfer, shown once: it has the focus, its warning is read
 * with it (aria-describedby), and it is a key unlike the old one. Its value, remembered as a secret.
 */
async function readShownKey(tab: ConsoleTab, suite: ConsoleSuite, oldKey: string): Promise<string> {
  const { page, ui } = tab;
  const shown = page.getByRole('textbox', { name: ui.newKey, exact: true });
  await shown.waitFor();
  const cle = await shown.inputValue();
  suite.secrets.keys.push(cle);
  // Tested, never printed.
  expect(KEY_SHAPE.test(cle)).toBe(true);
  expect(cle === oldKey).toBe(false);
  expect(await shown.evaluate((field) => field === field.ownerDocument.activeElement)).toBe(true);
  expect(await shown.getAttribute('readonly')).not.toBeNull();
  await page.getByText(ui.onceWarning, { exact: true }).waitFor();
  const warningId = await shown.getAttribute('aria-describedby');
  expect(await page.locator(`[id="${warningId ?? ''}"]`).textContent()).toBe(ui.onceWarning);
  return cle;
}

/**
 * After "Done": the new key is gone from the page (its text, its markup, every field's value), and
 * neither storage of the tab holds a licence key (docs/protocol.md#console). Booleans only: a
 * failing assertion prints its values, and a key must never be printed.
 */
async function expectShownOnce(tab: ConsoleTab, newKey: string, oldKey: string): Promise<void> {
  const { page, ui } = tab;
  await page.getByRole('button', { name: ui.done, exact: true }).click();
  // The page re-renders after the click, not during it: wait for the field to go.
  await page.getByRole('textbox', { name: ui.newKey, exact: true }).waitFor({ state: 'detached' });
  // The pressed button is gone: the focus goes to the page's title, not back to the document's start.
  expect(await page.evaluate('document.activeElement?.tagName')).toBe('H1');
  const state = await page.evaluate<{ text: string; html: string; fields: string[]; stored: string[] }>(
    `({
      text: [document.body.innerText, document.body.textContent].join(' '),
      html: document.documentElement.outerHTML,
      fields: [...document.querySelectorAll('input, textarea, select')].map((field) => field.value),
      stored: [...Object.values(sessionStorage), ...Object.values(localStorage)],
    })`,
  );
  const forms = (cle: string) => [
    cle,
    cle.toLowerCase(),
    cle.replaceAll('-', ''),
    cle.replaceAll('-', '').toLowerCase(),
  ];
  expect({
    inText: forms(newKey).some((form) => state.text.includes(form)),
    inMarkup: forms(newKey).some((form) => state.html.includes(form)),
    inAField: state.fields.some((value) => forms(newKey).some((form) => value.includes(form))),
    stored: state.stored.some(
      (value) => KEY_ANYWHERE.test(value) || [...forms(newKey), ...forms(oldKey)].some((form) => value.includes(form)),
    ),
  }).toEqual({ inText: false, inMarkup: false, inAField: false, stored: false });
}

/**
 * The operator's flows in the console, in English on a desktop window, against the real server
 * (`licence serve` in a child process): sign in and out, create a product, issue a key, see a
 * verdict in the activity chart, revoke a key, add an author and their token, purge. Each page
 * reached is screenshot and checked with axe (evidence.ts).
 */
/**
 * A new product with a key bound to exemple.fr by a real verdict, and a console tab of the operator
 * showing that key on the Keys page.
 */
async function openBoundKey(
  suite: ConsoleSuite,
  produit: string,
): Promise<{ readonly tab: ConsoleTab; readonly key: { readonly cle: string; readonly hint: string } }> {
  await addProduct(suite, produit, 'atelier');
  const key = await issueKey(suite, produit);
  expect((await askVerdict(suite.server, key.cle, 'https://www.exemple.fr/')).body?.donnees).toMatchObject({
    ok: true,
  });
  const tab = await openConsole(suite.browser, suite.server, 'en');
  await signIn(tab, suite.server.operatorToken);
  await findKey(tab, key);
  return { tab, key };
}

describe.skipIf(browserSkipReason() !== undefined)('the console, as the operator (English, desktop)', () => {
  const suite = consoleSuite();

  test('signs in with the operator token, kept in sessionStorage only, and signs out', async () => {
    const tab = await openConsole(suite.browser, suite.server, 'en');
    const { page, ui } = tab;
    await page.getByRole('heading', { level: 1, name: ui.signInTitle, exact: true }).waitFor();
    expect(await page.title()).toBe(`${ui.signInTitle} · ${ui.appName}`);
    expect(await page.getByRole('navigation').count()).toBe(0);
    await checkPage(tab, 'en-sign-in');

    // A wrong token, sent with the keyboard (Enter in the field): a sentence, never the problem's JSON.
    await page.getByLabel(ui.token, { exact: true }).fill(`lat_${'x'.repeat(43)}`);
    await page.getByLabel(ui.token, { exact: true }).press('Enter');
    await waitForAlert(page, ui.unauthorized);
    await checkPage(tab, 'en-sign-in-refused');

    await signIn(tab, suite.server.operatorToken);
    await page.getByText(ui.signedInOperator, { exact: true }).waitFor();
    const nav = page.getByRole('navigation', { name: ui.navLabel });
    expect(await nav.getByRole('link').allTextContents()).toEqual([
      ui.navProducts,
      ui.navKeys,
      ui.navWebhooks,
      ui.navAuthors,
      ui.navPurge,
    ]);
    // Booleans only: a failing assertion prints its values, and a token must never be printed.
    const stored = () =>
      page.evaluate<{ session: string[]; local: string[] }>(
        '({ session: Object.values(sessionStorage), local: Object.values(localStorage) })',
      );
    expect((await stored()).session.includes(suite.server.operatorToken)).toBe(true);
    expect((await stored()).local.includes(suite.server.operatorToken)).toBe(false);
    expect(await tab.context.cookies()).toEqual([]);

    // The tab keeps the session across a reload; signing out forgets it.
    await page.reload();
    await page.getByText(ui.signedInOperator, { exact: true }).waitFor();
    await page.getByRole('button', { name: ui.signOut, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: ui.signInTitle, exact: true }).waitFor();
    expect((await stored()).session.includes(suite.server.operatorToken)).toBe(false);
    await closeClean(tab, suite.secrets);
  });

  test('creates a product, listed with its installation count', async () => {
    const tab = await openConsole(suite.browser, suite.server, 'en');
    const { page, ui } = tab;
    await signIn(tab, suite.server.operatorToken);
    await page.getByRole('heading', { level: 1, name: ui.productsTitle, exact: true }).waitFor();
    await page.getByLabel(ui.productId, { exact: true }).fill('mon-theme');
    await page.getByLabel(ui.productName, { exact: true }).fill('Mon thème');
    await page.getByLabel(ui.productAuthor, { exact: true }).fill('atelier');
    await page.getByRole('button', { name: ui.createProduct, exact: true }).click();
    await waitForStatus(page, ui.productCreated('mon-theme'));
    await expect
      .poll(() => tableRecords(page, ui.productsCaption))
      .toContainEqual({
        [ui.productId]: 'mon-theme',
        [ui.productName]: 'Mon thème',
        [ui.productAuthor]: 'atelier',
        [ui.productInstallations]: '0',
        [ui.productStaging]: ui.productStagingNone,
      });
    await checkPage(tab, 'en-products');
    await closeClean(tab, suite.secrets);
  });

  test('issues a key, shown once with a copy button, that the public API accepts', async () => {
    await addProduct(suite, 'issue-theme', 'atelier');
    const tab = await openConsole(suite.browser, suite.server, 'en');
    const { page, ui } = tab;
    await tab.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url });
    await signIn(tab, suite.server.operatorToken);
    await goTo(tab, '#/products/issue-theme', ui.productTitle('issue-theme'));
    await page.getByLabel(ui.kind, { exact: true }).selectOption({ label: ui.kindBuyer });
    await page.getByLabel(ui.sites, { exact: true }).fill('2');
    await page.getByRole('button', { name: ui.issueKey, exact: true }).click();
    const shown = page.getByRole('textbox', { name: ui.newKey, exact: true });
    await shown.waitFor();
    const cle = await shown.inputValue();
    suite.secrets.keys.push(cle);
    // Five groups of five (docs/protocol.md#key-normalisation); tested, not printed.
    expect(/^[0-9A-Z]{5}(-[0-9A-Z]{5}){4}$/.test(cle)).toBe(true);
    // The new key takes the focus, selected, ready to copy.
    expect(await shown.evaluate((field) => field === field.ownerDocument.activeElement)).toBe(true);
    await checkPage(tab, 'en-key-issued');

    await page.getByRole('button', { name: ui.copy, exact: true }).click();
    await waitForStatus(page, ui.copiedOrSelected);
    expect((await page.evaluate<string>('navigator.clipboard.readText()')) === cle).toBe(true);
    await page.getByRole('button', { name: ui.done, exact: true }).click();
    await shown.waitFor({ state: 'detached' });

    const verdict = await askVerdict(suite.server, cle, 'https://www.exemple.fr/');
    expect(verdict.status).toBe(200);
    expect(verdict.body?.donnees).toMatchObject({ ok: true, motif: '', domaine: 'exemple.fr' });
    // The installations on the same page list the new key: issuing one must refresh them.
    const { hint } = await adminOk(suite.server, suite.server.operatorToken, 'GET', `/admin/keys/${cle}`);
    await expect
      .poll(async () =>
        (await tableRecords(page, ui.installationsCaption('issue-theme'))).map((row) => row[ui.keyColumn]),
      )
      .toContain(`…${String(hint)}`);
    await closeClean(tab, suite.secrets);
  });

  test('a verdict sent to the public API appears in the activity chart', async () => {
    await addProduct(suite, 'activity-theme', 'atelier');
    const bound = await issueKey(suite, 'activity-theme');
    const revoked = await issueKey(suite, 'activity-theme');
    await revokeKey(suite, revoked.cle);
    expect((await askVerdict(suite.server, bound.cle, 'https://www.exemple.fr/')).body?.donnees).toMatchObject({
      ok: true,
    });
    expect((await askVerdict(suite.server, bound.cle, 'http://localhost:8080/')).body?.donnees).toMatchObject({
      essai: true,
    });
    expect((await askVerdict(suite.server, revoked.cle, 'https://autre.exemple/')).body?.donnees).toMatchObject({
      ok: false,
      motif: 'revocation',
    });

    const tab = await openConsole(suite.browser, suite.server, 'en');
    const { page, ui } = tab;
    await signIn(tab, suite.server.operatorToken);
    await goTo(tab, '#/products/activity-theme', ui.productTitle('activity-theme'));
    const chart = page.getByRole('img', { name: ui.chartTitle('activity-theme', 30), exact: true });
    await chart.waitFor();
    const days = await tableRecords(page, ui.activityCaption('activity-theme', 30));
    expect(days).toHaveLength(30);
    // Today (UTC) is the last row: one of each outcome; every earlier day is empty.
    expect(days.at(-1)).toMatchObject({
      [ui.outcomeOk]: '1',
      [ui.outcomeEssai]: '1',
      [ui.outcomeRevocation]: '1',
      [ui.total]: '3',
    });
    expect(days.slice(0, -1).every((day) => day[ui.total] === '0')).toBe(true);
    // The chart draws today's bar: three stacked segments of equal height, nothing on other days.
    const heights = await chart
      .locator('rect')
      .evaluateAll((rects) => rects.map((rect) => Number(rect.getAttribute('height'))).filter((height) => height > 0));
    expect(heights).toHaveLength(3);
    expect(new Set(heights.map((height) => height.toFixed(1))).size).toBe(1);
    // Installations: the domains bound to active keys, one here (localhost binds nothing).
    await page.getByText(ui.installationsCount(1), { exact: true }).waitFor();
    const installations = await tableRecords(page, ui.installationsCaption('activity-theme'));
    expect(installations.map((row) => row[ui.domain])).toContain('exemple.fr');
    await checkPage(tab, 'en-product');

    await page.getByRole('button', { name: ui.periodDays(90), exact: true }).click();
    expect(await tableRecords(page, ui.activityCaption('activity-theme', 90))).toHaveLength(90);
    expect(await page.getByRole('button', { name: ui.periodDays(90), exact: true }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await closeClean(tab, suite.secrets);
  });

  test('revokes a key after a confirmation, and the public API then refuses it', async () => {
    await addProduct(suite, 'revoke-theme', 'atelier');
    const key = await issueKey(suite, 'revoke-theme');
    expect((await askVerdict(suite.server, key.cle, 'https://www.exemple.fr/')).body?.donnees).toMatchObject({
      ok: true,
    });

    const tab = await openConsole(suite.browser, suite.server, 'en');
    const { page, ui } = tab;
    await signIn(tab, suite.server.operatorToken);
    await goTo(tab, '#/keys', ui.keysTitle);
    await page.getByLabel(ui.licenceKey, { exact: true }).fill(key.cle.toLowerCase());
    await page.getByRole('button', { name: ui.findKey, exact: true }).click();
    await page.getByRole('heading', { level: 2, name: ui.keyTitle(key.hint), exact: true }).waitFor();
    expect(await page.getByRole('definition').allTextContents()).toEqual(
      expect.arrayContaining(['revoke-theme', ui.statusActive, ui.kindBuyer, '1']),
    );
    expect((await tableRecords(page, ui.domainsCaption)).map((row) => row[ui.domain])).toEqual(['exemple.fr']);
    await checkPage(tab, 'en-key');

    await page.getByRole('button', { name: ui.revoke, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: ui.revokeTitle, exact: true });
    await dialog.waitFor();
    await dialog.getByLabel(ui.revokeReason, { exact: true }).fill('refund');
    await checkPage(tab, 'en-key-revoke-dialog');
    await dialog.getByRole('button', { name: ui.revokeConfirm, exact: true }).click();
    await waitForStatus(page, ui.keyRevoked(key.hint));
    await expect.poll(() => page.getByRole('definition').allTextContents()).toContain(ui.statusRevoked);
    await checkPage(tab, 'en-key-revoked');

    const verdict = await askVerdict(suite.server, key.cle, 'https://www.exemple.fr/');
    expect(verdict.status).toBe(200);
    expect(verdict.body?.donnees).toMatchObject({ ok: false, motif: 'revocation' });
    await closeClean(tab, suite.secrets);
  });

  test('regenerates a key after a confirmation: the new key shown once, bound to the same domain', async () => {
    const { tab, key } = await openBoundKey(suite, 'regen-theme');
    const { page, ui } = tab;
    const regenerate = page.getByRole('button', { name: ui.regenerate, exact: true });
    const dialog = page.getByRole('dialog', { name: ui.regenerateTitle, exact: true });
    const focused = (locator: typeof dialog) =>
      locator.evaluate((element) => element === element.ownerDocument.activeElement);

    // Cancel first: the focus is in the dialog (on Cancel: Enter alone never regenerates), and
    // goes back to the button that opened it; the key is untouched.
    await regenerate.click();
    await dialog.waitFor();
    expect(await dialog.evaluate((element) => element.contains(element.ownerDocument.activeElement))).toBe(true);
    expect(await focused(dialog.getByRole('button', { name: ui.cancel, exact: true }))).toBe(true);
    await checkPage(tab, 'en-key-regenerate-dialog');
    await dialog.getByRole('button', { name: ui.cancel, exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await focused(regenerate)).toBe(true);
    expect(await page.getByRole('definition').allTextContents()).toContain(ui.statusActive);

    await regenerate.click();
    await dialog.getByRole('button', { name: ui.regenerateConfirm, exact: true }).click();
    await waitForStatus(page, ui.keyRegenerated);
    const cle = await readShownKey(tab, suite, key.cle);
    // The old key, still on the page: replaced, with no action left.
    await expect.poll(() => page.getByRole('definition').allTextContents()).toContain(ui.statusRegenerated);
    await regenerate.waitFor({ state: 'detached' });
    await checkPage(tab, 'en-key-regenerated');
    await expectShownOnce(tab, cle, key.cle);
    await checkPage(tab, 'en-key-regenerated-done');

    // The domain carried over to the new key before it was ever used (a fresh key would bind any).
    const view = await adminOk(suite.server, suite.server.operatorToken, 'GET', `/admin/keys/${cle}`);
    expect(view).toMatchObject({ produit: 'regen-theme', status: 'active', domains: [{ domain: 'exemple.fr' }] });
    const old = await askVerdict(suite.server, key.cle, 'https://www.exemple.fr/');
    expect(old.status).toBe(200);
    expect(old.body?.donnees).toMatchObject({ ok: false, motif: 'regeneration' });
    const fresh = await askVerdict(suite.server, cle, 'https://www.exemple.fr/');
    expect(fresh.status).toBe(200);
    expect(fresh.body?.donnees).toMatchObject({ ok: true, motif: '', domaine: 'exemple.fr' });
    await closeClean(tab, suite.secrets);
  });

  test('transfers a key to another domain after a confirmation: the new key shown once', async () => {
    const { tab, key } = await openBoundKey(suite, 'transfer-theme');
    const { page, ui } = tab;
    await page.getByRole('button', { name: ui.transfer, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: ui.transferTitle, exact: true });
    await dialog.waitFor();
    // The focus is on the dialog's first field.
    const from = dialog.getByLabel(ui.transferFrom, { exact: true });
    expect(await from.evaluate((field) => field === field.ownerDocument.activeElement)).toBe(true);
    await from.fill('exemple.fr');
    await dialog.getByLabel(ui.transferTo, { exact: true }).fill('boutique.exemple.com');
    await checkPage(tab, 'en-key-transfer-dialog');
    await dialog.getByRole('button', { name: ui.transferConfirm, exact: true }).click();
    await waitForStatus(page, ui.keyTransferred);
    const cle = await readShownKey(tab, suite, key.cle);
    await expect.poll(() => page.getByRole('definition').allTextContents()).toContain(ui.statusTransferred);
    await checkPage(tab, 'en-key-transferred');
    await expectShownOnce(tab, cle, key.cle);

    // The new key is bound to the registrable domain added, and no longer to the one removed.
    const view = await adminOk(suite.server, suite.server.operatorToken, 'GET', `/admin/keys/${cle}`);
    expect(view).toMatchObject({ produit: 'transfer-theme', status: 'active', domains: [{ domain: 'exemple.com' }] });
    const old = await askVerdict(suite.server, key.cle, 'https://www.exemple.fr/');
    expect(old.status).toBe(200);
    expect(old.body?.donnees).toMatchObject({ ok: false, motif: 'transfert' });
    const fresh = await askVerdict(suite.server, cle, 'https://boutique.exemple.com/');
    expect(fresh.status).toBe(200);
    expect(fresh.body?.donnees).toMatchObject({ ok: true, motif: '', domaine: 'exemple.com' });
    expect((await askVerdict(suite.server, cle, 'https://www.exemple.fr/')).body?.donnees).toMatchObject({ ok: false });
    await closeClean(tab, suite.secrets);
  });

  test('adds an author, creates their token (shown once), and deletes it', async () => {
    const tab = await openConsole(suite.browser, suite.server, 'en');
    const { page, ui } = tab;
    await signIn(tab, suite.server.operatorToken);
    await goTo(tab, '#/authors', ui.authorsTitle);
    await page.getByLabel(ui.authorId, { exact: true }).fill('studio');
    await page.getByLabel(ui.authorName, { exact: true }).fill('Studio Nord');
    await page.getByRole('button', { name: ui.addAuthor, exact: true }).click();
    await waitForStatus(page, ui.authorAdded('studio'));
    await page.getByRole('link', { name: ui.tokensOf('studio'), exact: true }).waitFor();
    await checkPage(tab, 'en-authors');

    await page.getByRole('link', { name: ui.tokensOf('studio'), exact: true }).click();
    await page.getByRole('heading', { level: 1, name: ui.tokensOf('studio'), exact: true }).waitFor();
    await page.getByLabel(ui.tokenLabel, { exact: true }).fill('shop');
    await page.getByRole('button', { name: ui.createToken, exact: true }).click();
    const shown = page.getByRole('textbox', { name: ui.newToken, exact: true });
    await shown.waitFor();
    const token = await shown.inputValue();
    suite.secrets.tokens.push(token);
    expect(token.startsWith('lat_')).toBe(true);
    await page.getByRole('button', { name: ui.deleteToken('shop'), exact: true }).waitFor();
    await checkPage(tab, 'en-author-tokens');
    const me = await admin(suite.server, token, 'GET', '/admin/me');
    expect(me).toMatchObject({ status: 200, body: { role: 'author', author: { id: 'studio', name: 'Studio Nord' } } });

    await page.getByRole('button', { name: ui.deleteToken('shop'), exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: ui.deleteTokenConfirm, exact: true }).click();
    await waitForStatus(page, ui.tokenDeleted('shop'));
    expect((await admin(suite.server, token, 'GET', '/admin/me')).status).toBe(401);
    await closeClean(tab, suite.secrets);
  });

  test('purges the request log after a confirmation', async () => {
    const tab = await openConsole(suite.browser, suite.server, 'en');
    const { page, ui } = tab;
    await signIn(tab, suite.server.operatorToken);
    await goTo(tab, '#/purge', ui.purgeTitle);
    await checkPage(tab, 'en-purge');
    await page.getByRole('button', { name: ui.purge, exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: ui.purgeConfirm, exact: true }).click();
    // Nothing here is twelve months old.
    await waitForStatus(page, ui.purgeDone(0));
    await closeClean(tab, suite.secrets);
  });
});
