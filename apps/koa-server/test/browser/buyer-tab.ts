import { createPrivateKey, sign } from 'node:crypto';
import type { Browser, BrowserContext, Locator, Page, Response } from 'playwright-core';
import { expect } from 'vitest';
import { DESKTOP, openPage } from './browser.js';
import { type BuyerLabels, type BuyerLang, buyerLabels } from './buyer-labels.js';
import { evidence, screenshot } from './evidence.js';

/**
 * A browser tab on a buyer's page (docs/protocol.md#buyer-links) of a running server, and the
 * checks every such page gets: its status, its one h1, its language, a width that fits the window,
 * its style sheet loaded, no script error or CSP refusal, then a screenshot and axe (evidence.ts;
 * the screenshot alone with JavaScript off).
 */
export interface BuyerTab {
  readonly lang: BuyerLang;
  readonly ui: BuyerLabels;
  readonly context: BrowserContext;
  readonly page: Page;
  readonly width: number;
  readonly javaScript: boolean;
  /** Every address the tab showed. */
  readonly addresses: string[];
  /** The statuses of `buyer.css` as the pages loaded it. */
  readonly stylesheets: number[];
  /** Uncaught exceptions and console errors other than the HTTP status of an answer. */
  readonly problems: string[];
}

// The browser logs each 4xx answer as a console error (an end page is a 404, 410, 429 or 403 on
// purpose): not a fault of the page. The icon is no longer one (docs/protocol.md#favicon:
// favicon.browser.test.ts).
const HTTP_STATUS_LINE = /^Failed to load resource: the server responded with a status of 4\d\d/;

export interface BuyerTabOptions {
  readonly viewport?: { readonly width: number; readonly height: number };
  readonly javaScript?: boolean;
}

/** How many tabs were opened: each one's client address (below). */
let tabsOpened = 0;

/**
 * A fresh context in `lang` (its locale, so Accept-Language), JavaScript on unless said. Each tab
 * names a client address of its own in `X-Forwarded-For`, which a server started with
 * `TRUST_PROXY=loopback` believes (and any other ignores): the buyer pages allow 30 requests per
 * address in any 60 s (docs/protocol.md#buyer-links), and a test that looks at every page four ways
 * from one browser would otherwise meet the limit meant for a flood.
 */
export async function openBuyerTab(
  browser: Browser,
  lang: BuyerLang,
  options: BuyerTabOptions = {},
): Promise<BuyerTab> {
  const viewport = options.viewport ?? DESKTOP;
  const javaScript = options.javaScript ?? true;
  const { context, page } = await openPage(browser, {
    locale: lang === 'fr' ? 'fr-FR' : 'en-GB',
    viewport,
    javaScriptEnabled: javaScript,
  });
  tabsOpened += 1;
  await context.setExtraHTTPHeaders({ 'x-forwarded-for': `198.51.100.${(tabsOpened % 250) + 1}` });
  const tab: BuyerTab = {
    lang,
    ui: buyerLabels(lang),
    context,
    page,
    width: viewport.width,
    javaScript,
    addresses: [],
    stylesheets: [],
    problems: [],
  };
  page.on('framenavigated', (frame) => tab.addresses.push(frame.url()));
  page.on('pageerror', (error) => tab.problems.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !HTTP_STATUS_LINE.test(message.text())) tab.problems.push(message.text());
  });
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.endsWith('/buyer/buyer.css')) tab.stylesheets.push(response.status());
  });
  return tab;
}

/** Opens `url` in the tab; the answer's status. */
export async function visit(tab: BuyerTab, url: string): Promise<number> {
  const response = await tab.page.goto(url);
  return response?.status() ?? 0;
}

/** Clicks `button` (a form's submit) and waits for the page the POST answered; its status. */
export async function submit(tab: BuyerTab, button: Locator): Promise<number> {
  const answered = tab.page.waitForResponse(
    (response: Response) => response.request().method() === 'POST' && response.request().isNavigationRequest(),
  );
  await button.click();
  const response = await answered;
  await tab.page.waitForLoadState('load');
  return response.status();
}

/** A bound domain's region on the key's page: its dates and its two forms. */
export function site(tab: BuyerTab, domain: string): Locator {
  return tab.page.getByRole('region', { name: domain, exact: true });
}

/** Moves `from` to `to` through the page's form; the status of the answer. */
export async function moveSite(tab: BuyerTab, from: string, to: string): Promise<number> {
  const region = site(tab, from);
  await region.getByLabel(tab.ui.newDomain(from), { exact: true }).fill(to);
  return submit(tab, region.getByRole('button', { name: tab.ui.move(from), exact: true }));
}

/** Frees `domain` through the page's form; the status of the answer. */
export async function freeSite(tab: BuyerTab, domain: string): Promise<number> {
  return submit(tab, site(tab, domain).getByRole('button', { name: tab.ui.free(domain), exact: true }));
}

/** A key as issued: five groups of five characters of Crockford's base32 (docs/protocol.md#key-normalisation). */
const KEY_SHAPE = /^[0-9A-HJKMNP-TV-Z]{5}(?:-[0-9A-HJKMNP-TV-Z]{5}){4}$/;

/**
 * The new key the done page shows once, read from its block (never printed: the assertions compare
 * booleans).
 */
export async function shownKey(tab: BuyerTab): Promise<string> {
  const block = tab.page.getByRole('region', { name: tab.ui.newKey, exact: true });
  const text = ((await block.locator('p').first().textContent()) ?? '').trim();
  expect(KEY_SHAPE.test(text)).toBe(true);
  expect(await block.getByText(tab.ui.shownOnce, { exact: true }).count()).toBe(1);
  return text;
}

/**
 * The checks of every buyer page: `status`, one h1 saying `title`, `<html lang>`, no sideways
 * scrolling at the window's width, the style sheet loaded (its relative link resolves at both
 * depths, /buyer/<token> and /buyer/<token>/transfer), then the screenshot and axe under `name`.
 */
export async function checkBuyerPage(tab: BuyerTab, name: string, status: number, actual: number, title: string) {
  const { page } = tab;
  expect(actual, `${name}: status`).toBe(status);
  const headings = page.getByRole('heading', { level: 1 });
  expect(await headings.count()).toBe(1);
  expect((await headings.textContent())?.trim()).toBe(title);
  expect(await page.locator('html').getAttribute('lang')).toBe(tab.lang);
  expect(tab.stylesheets.at(-1), `${name}: buyer.css`).toBe(200);
  const scrollWidth = await page.locator('html').evaluate((element) => element.scrollWidth);
  expect(scrollWidth, `${name}: page width`).toBeLessThanOrEqual(tab.width);
  const device = tab.width < DESKTOP.width ? 'phone' : 'desktop';
  const evidenceName = `buyer-${name}-${tab.lang}-${device}${tab.javaScript ? '' : '-nojs'}`;
  // axe is a script run in the page: with JavaScript off it never answers. The pages are the same
  // HTML either way (they hold no script), and each is axe-checked in a tab with it on.
  if (tab.javaScript) await evidence(page, evidenceName);
  else await screenshot(page, evidenceName);
}

/**
 * Closes the tab, then: no script error or CSP refusal happened, and no licence key was ever in its
 * address (a token is: it is the link).
 */
export async function closeBuyerTab(tab: BuyerTab, keys: readonly string[]): Promise<void> {
  await tab.context.close();
  expect(tab.problems).toEqual([]);
  const normalised = keys.map((key) => key.replaceAll('-', ''));
  const found = tab.addresses.filter(
    (url) => keys.some((key) => url.includes(key)) || normalised.some((key) => url.includes(key)),
  );
  expect(found.length).toBe(0);
}

// RFC 8410: the PKCS #8 DER of an Ed25519 private key is this prefix and the 32-byte seed.
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * The link `link` with its expiry moved to `expires` and signed again with the server's own seed
 * (the test gives the server its LICENCE_SIGNING_KEY, as an operator does): a link of that service
 * that has expired, without waiting for one (a link lives a minute at least, and `licence serve`
 * reads the real clock). Signed with node:crypto from the format of buyer/token.ts
 * (`<payload>.<signature>`, base64url, the payload `<expiry>.<key id>.<hint>` and the signature
 * over a context line and the payload), not with the service's own code.
 */
export function relinked(link: string, seed: Uint8Array, expires: number): string {
  const [base = '', token = ''] = link.split('/buyer/');
  const [payload = ''] = token.split('.');
  const [, keyId, hint] = Buffer.from(payload, 'base64url').toString('utf8').split('.');
  const text = `${expires}.${keyId}.${hint}`;
  const key = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const signature = sign(null, Buffer.from(`licence buyer link v1\n${text}`), key);
  return `${base}/buyer/${Buffer.from(text).toString('base64url')}.${signature.toString('base64url')}`;
}
