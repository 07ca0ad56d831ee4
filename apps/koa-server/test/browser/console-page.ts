import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { type ContextOptions, openPage } from './browser.js';
import type { ConsoleServer } from './console-server.js';
import { foreignLabels, type Labels, labelsOf, type Lang } from './console-labels.js';
import { evidence } from './evidence.js';

/**
 * A browser tab on the console of a running server: the page, what it asked for, and what went
 * wrong in it (uncaught errors, CSP refusals), for the checks that end every test.
 */
export interface ConsoleTab {
  readonly lang: Lang;
  readonly context: BrowserContext;
  readonly page: Page;
  readonly ui: Labels;
  /** Every URL the tab requested (pages, scripts, admin API calls). */
  readonly urls: string[];
  /** Every address the tab showed, hash routes included. */
  readonly addresses: string[];
  /** Uncaught exceptions and console errors other than the HTTP status of a failed request. */
  readonly problems: string[];
}

// The browser logs every 4xx answer of a fetch as a console error: an expected 404 (another
// author's product) or 401 (a wrong token) is not a fault of the page.
const HTTP_STATUS_LINE = /^Failed to load resource: the server responded with a status of 4\d\d/;

/** A fresh context in `lang` (its locale, so Accept-Language too), on `/console`. */
export async function openConsole(
  browser: Browser,
  server: ConsoleServer,
  lang: Lang,
  options: Omit<ContextOptions, 'locale'> = {},
): Promise<ConsoleTab> {
  const { context, page, urls } = await openPage(browser, {
    ...options,
    locale: lang === 'fr' ? 'fr-FR' : 'en-GB',
  });
  const problems: string[] = [];
  const addresses: string[] = [];
  page.on('framenavigated', (frame) => addresses.push(frame.url()));
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !HTTP_STATUS_LINE.test(message.text())) problems.push(message.text());
  });
  const response = await page.goto(`${server.url}/console`);
  expect(response?.status()).toBe(200);
  const ui = labelsOf(lang);
  await expect.poll(() => page.locator('html').getAttribute('lang')).toBe(lang);
  return { lang, context, page, ui, urls, addresses, problems };
}

/** Signs in through the form, as a user pastes a token, and waits for the signed-in banner. */
export async function signIn(tab: ConsoleTab, token: string): Promise<void> {
  const { page, ui } = tab;
  await page.getByLabel(ui.token, { exact: true }).fill(token);
  await page.getByRole('button', { name: ui.signIn, exact: true }).click();
  await page.getByRole('button', { name: ui.signOut, exact: true }).waitFor();
}

/** Opens a page of the console by its hash route (`#/products/abc`) and waits for its h1. */
export async function goTo(tab: ConsoleTab, hash: string, heading: string): Promise<void> {
  await tab.page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
  await tab.page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
}

export interface Secrets {
  /** Operator and author tokens: in no URL at all, only in Authorization headers. */
  readonly tokens?: readonly string[];
  /**
   * Licence keys: never in the tab's address. The admin API takes a key as a path segment
   * (`GET /admin/keys/:cle`, docs/protocol.md#administration), so the API calls may hold one.
   */
  readonly keys?: readonly string[];
}

/**
 * What must hold at the end of every test: no script error or CSP refusal in the page, no token in
 * any URL the tab asked for, no licence key in its address (docs/protocol.md#console).
 */
export async function closeClean(tab: ConsoleTab, secrets: Secrets = {}): Promise<void> {
  await tab.context.close();
  expect(tab.problems).toEqual([]);
  // A failure names the URL with the secret blanked out: a test never prints a token or a key.
  for (const token of secrets.tokens ?? []) {
    const found = tab.urls.concat(tab.addresses).filter((url) => url.includes(token));
    expect(found.map((url) => url.replaceAll(token, '<token>'))).toEqual([]);
  }
  for (const key of secrets.keys ?? []) {
    const found = tab.addresses.filter((url) => url.includes(key) || url.includes(encodeURIComponent(key)));
    expect(found.map((url) => url.replaceAll(key, '<key>').replaceAll(encodeURIComponent(key), '<key>'))).toEqual([]);
  }
}

/**
 * A table, found by its caption, as records: each body row keyed by the column headers' text.
 * What a screen reader announces cell by cell. Waits for the table, and for its rows while it says
 * it is loading them (aria-busy).
 */
export async function tableRecords(page: Page, caption: string): Promise<Record<string, string>[]> {
  const table = page.getByRole('table', { name: caption, exact: true });
  // A console table is aria-busy while its rows load: read it once they came (a loaded CI machine
  // could read the tokens table empty, once, on Node 20).
  await table.and(page.locator('table:not([aria-busy="true"])')).waitFor();
  return table.evaluate((element) => {
    const headers = [...element.querySelectorAll('thead th')].map((cell) => cell.textContent?.trim() ?? '');
    return [...element.querySelectorAll('tbody tr')].map((row) =>
      Object.fromEntries([...row.children].map((cell, i) => [headers[i] ?? String(i), cell.textContent?.trim() ?? ''])),
    );
  });
}

/**
 * Waits until the polite status region (successes) says `expected`, a sentence or a pattern: the
 * region may still hold the previous success when an action starts.
 */
export async function waitForStatus(page: Page, expected: string | RegExp): Promise<void> {
  await waitForText(page.getByRole('status'), expected);
}

/** Waits until the alert region (errors) says `expected`. */
export async function waitForAlert(page: Page, expected: string | RegExp): Promise<void> {
  await waitForText(page.getByRole('alert'), expected);
}

async function waitForText(region: Locator, expected: string | RegExp): Promise<void> {
  const text = () => region.textContent().then((value) => value ?? '');
  if (typeof expected === 'string') await expect.poll(text).toBe(expected);
  else await expect.poll(text).toMatch(expected);
}

/**
 * The checks of every page the tests reach: the screenshot and axe (evidence.ts), the page's
 * language in `<html lang>`, and no label of the other language in its text.
 */
export async function checkPage(tab: ConsoleTab, name: string): Promise<void> {
  await evidence(tab.page, name);
  expect(await tab.page.locator('html').getAttribute('lang')).toBe(tab.lang);
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's Locator.innerText, the text as rendered with its line breaks; textContent would glue "Products" and "Keys" together and defeat the word-bounded match below.
  const text = await tab.page.locator('body').innerText();
  const literal = (label: string) => label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = foreignLabels(tab.lang).filter((label) =>
    new RegExp(`(^|[^\\p{L}])${literal(label)}($|[^\\p{L}])`, 'u').test(text),
  );
  expect(found, `${name}: text of the other language`).toEqual([]);
}
