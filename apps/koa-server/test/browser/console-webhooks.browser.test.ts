import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addAuthorWithToken, addProduct, issueKey } from './api-setup.js';
import { browserSkipReason, PHONE } from './browser.js';
import type { Labels } from './console-labels.js';
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
import { adminOk } from './console-server.js';
import { consoleSuite } from './console-suite.js';

/**
 * The console's Webhooks page (docs/protocol.md#console, #webhooks) against the real server, its
 * deliverer running inside `licence serve` with LICENCE_WEBHOOK_ALLOW_PRIVATE=1 so that it may
 * reach a receiver on loopback: an endpoint added in the page, its secret shown once and copied, a
 * key issued through the API arriving at the receiver signed (checked with the `standardwebhooks`
 * library, not ours) and shown delivered in the page; a closed port's failed attempt, and Retry;
 * rotation and deletion, each confirmed; an author's own endpoints only; a phone's screen.
 */

/** What the receiver got: one entry per request. */
interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A shop's receiver on loopback: it answers 204 to everything and remembers what came. */
async function startReceiver(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, server };
}

/** A loopback port nothing listens on: the deliverer's attempt is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whether a request carries a Standard Webhooks signature made with `secret` (the library throws otherwise). */
function verifies(secret: string, request: Received): boolean {
  const headers: Record<string, string> = {};
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  try {
    new Webhook(secret).verify(request.body, headers);
    return true;
  } catch {
    return false;
  }
}

// Deliveries happen in the background (a round a second): polls wait generously, for a loaded CI.
const SLOW = { timeout: 30_000, interval: 250 } as const;
const TEST_TIMEOUT = 120_000;

/** Fills the form and sends it; the new secret is read from its field (never printed) and kept as a secret. */
async function addEndpoint(tab: ConsoleTab, url: string, secrets: string[]): Promise<string> {
  const { page, ui } = tab;
  await page.getByLabel(ui.webhookUrl, { exact: true }).fill(url);
  await page.getByRole('button', { name: ui.addWebhook, exact: true }).click();
  await waitForStatus(page, ui.webhookAdded);
  const field = page.getByLabel(ui.signingSecret, { exact: true });
  const secret = await field.inputValue();
  secrets.push(secret);
  expect(secret.startsWith('whsec_')).toBe(true);
  // The secret takes the focus when it appears (ShownOnce), so a keyboard user is right there.
  expect(await field.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
  return secret;
}

/** The count of a delivery's Attempts cell ("2 attempts", then the folded list); 0 for none yet. */
function attemptCount(ui: Labels, cell: string | undefined): number {
  for (let n = 20; n > 0; n--) if ((cell ?? '').startsWith(ui.attempts(n))) return n;
  return 0;
}

/** Presses Refresh until the first delivery's row satisfies `ready`; that row. */
async function firstDeliveryWhen(
  page: Page,
  ui: Labels,
  ready: (row: Record<string, string>) => boolean,
): Promise<Record<string, string>> {
  let first: Record<string, string> = {};
  await expect
    .poll(async () => {
      await page.getByRole('button', { name: ui.refresh, exact: true }).click();
      first = (await tableRecords(page, ui.deliveriesCaption))[0] ?? {};
      return ready(first);
    }, SLOW)
    .toBe(true);
  return first;
}

describe.skipIf(browserSkipReason() !== undefined)('the console’s webhooks page', () => {
  const suite = consoleSuite({ LICENCE_WEBHOOK_ALLOW_PRIVATE: '1' });
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let authorToken = '';

  beforeAll(async () => {
    receiver = await startReceiver();
    authorToken = await addAuthorWithToken(suite, 'atelier', 'Atelier Dupont');
    await addProduct(suite, 'crochet', 'atelier', 'Crochet');
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => receiver?.server.close(() => resolve()));
  });

  test(
    'the operator adds an endpoint: its secret once, then a key issued arrives signed and shows delivered (English)',
    async () => {
      const tab = await openConsole(suite.browser, suite.server, 'en');
      const { page, ui } = tab;
      await tab.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url });
      await signIn(tab, suite.server.operatorToken);
      const nav = page.getByRole('navigation', { name: ui.navLabel });
      await nav.getByRole('link', { name: ui.navWebhooks, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: ui.webhooksTitle, exact: true }).waitFor();
      expect(await nav.getByRole('link', { name: ui.navWebhooks }).getAttribute('aria-current')).toBe('page');
      await checkPage(tab, 'webhooks-empty');

      // A URL the service refuses: its 400 detail, after the sentence.
      await page.getByLabel(ui.webhookUrl, { exact: true }).fill('ftp://shop.example/hooks');
      await page.getByRole('button', { name: ui.addWebhook, exact: true }).click();
      await waitForAlert(page, ui.urlRefused);

      const url = `${receiver.url}/hooks/en`;
      await page.getByLabel(ui.webhookAuthor, { exact: true }).selectOption('atelier');
      const secret = await addEndpoint(tab, url, suite.secrets.tokens);
      await page.getByText(ui.verifyHint, { exact: true }).waitFor();
      await page.getByRole('button', { name: ui.copy, exact: true }).click();
      await waitForStatus(page, ui.copiedOrSelected);
      expect((await page.evaluate<string>('navigator.clipboard.readText()')) === secret).toBe(true);
      await checkPage(tab, 'webhooks-secret');
      await page.getByRole('button', { name: ui.done, exact: true }).click();
      expect(await page.getByLabel(ui.signingSecret, { exact: true }).count()).toBe(0);
      await expect
        .poll(async () => (await tableRecords(page, ui.webhooksCaption)).map((row) => row[ui.webhookUrlColumn]))
        .toEqual([url]);
      const [row] = await tableRecords(page, ui.webhooksCaption);
      expect(row?.[ui.webhookAuthorColumn]).toBe('atelier');

      await issueKey(suite, 'crochet');
      await expect.poll(() => receiver.received.filter((r) => r.path === '/hooks/en').length, SLOW).toBe(1);
      const request = receiver.received.find((r) => r.path === '/hooks/en');
      if (request === undefined) throw new Error('no request at /hooks/en');
      expect(verifies(secret, request)).toBe(true);
      expect((JSON.parse(request.body) as { type: string }).type).toBe('key.issued');

      await page.getByRole('link', { name: `${ui.deliveriesLink} ${url}`, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: ui.deliveriesTitle, exact: true }).waitFor();
      const delivered = await firstDeliveryWhen(page, ui, (r) => r[ui.deliveryStatus] === ui.delivered);
      expect(delivered[ui.deliveryType]).toBe('key.issued');
      // The event id the page shows is the webhook-id the receiver got.
      expect(Object.values(delivered).includes(String(request.headers['webhook-id']))).toBe(true);
      await page.getByText(ui.attempts(1), { exact: true }).click();
      const table = page.getByRole('table', { name: ui.deliveriesCaption, exact: true });
      await table.getByRole('listitem').filter({ hasText: 'HTTP 204' }).waitFor();
      await checkPage(tab, 'webhook-deliveries');
      await closeClean(tab, suite.secrets);
    },
    TEST_TIMEOUT,
  );

  test(
    'a closed port: the attempt fails, Retry makes it due again; rotation and deletion are confirmed (French)',
    async () => {
      const tab = await openConsole(suite.browser, suite.server, 'fr');
      const { page, ui } = tab;
      await signIn(tab, suite.server.operatorToken);
      await goTo(tab, '#/webhooks', ui.webhooksTitle);
      const url = `http://127.0.0.1:${await closedPort()}/hooks/fr`;
      // One event only: key.issued, every other box unticked.
      for (const event of ['key.regenerated', 'key.transferred', 'key.revoked', 'domain.bound', 'verdict.refused']) {
        await page.getByRole('checkbox', { name: event, exact: true }).uncheck();
      }
      const first = await addEndpoint(tab, url, suite.secrets.tokens);
      await page.getByRole('button', { name: ui.done, exact: true }).click();
      const listed = await tableRecords(page, ui.webhooksCaption);
      expect(listed.find((r) => r[ui.webhookUrlColumn] === url)?.[ui.webhookAuthorColumn]).toBe(ui.everyAuthor);

      await issueKey(suite, 'crochet');
      await page.getByRole('link', { name: `${ui.deliveriesLink} ${url}`, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: ui.deliveriesTitle, exact: true }).waitFor();
      const failed = await firstDeliveryWhen(page, ui, (r) => attemptCount(ui, r[ui.deliveryAttempts]) > 0);
      expect(failed[ui.deliveryStatus]).toBe(ui.pending);
      const tries = attemptCount(ui, failed[ui.deliveryAttempts]);
      await page.getByText(ui.attempts(tries), { exact: true }).click();
      // No HTTP status came: the reason is the service's, in English, marked so.
      const attempts = page.getByRole('table', { name: ui.deliveriesCaption, exact: true }).getByRole('listitem');
      const reason = attempts.first().locator('[lang="en"]');
      expect(((await reason.textContent()) ?? '').length).toBeGreaterThan(0);
      expect(await attempts.filter({ hasText: 'HTTP' }).count()).toBe(0);

      await page.getByRole('button', { name: new RegExp(`^${ui.retry} msg_`) }).click();
      await waitForStatus(page, ui.retried('key.issued'));
      expect((await tableRecords(page, ui.deliveriesCaption))[0]?.[ui.deliveryStatus]).toBe(ui.pending);
      await checkPage(tab, 'fr-webhook-deliveries-failed');
      // The retry was due at once: a new attempt is made, and fails again.
      await firstDeliveryWhen(page, ui, (r) => attemptCount(ui, r[ui.deliveryAttempts]) > tries);

      await goTo(tab, '#/webhooks', ui.webhooksTitle);
      await page.getByRole('button', { name: `${ui.rotateSecret} ${url}`, exact: true }).click();
      const rotate = page.getByRole('dialog', { name: ui.rotateSecretTitle(url), exact: true });
      await rotate.getByRole('button', { name: ui.rotateSecretConfirm, exact: true }).click();
      await waitForStatus(page, ui.secretRotated);
      const field = page.getByLabel(ui.newSigningSecret(url), { exact: true });
      const second = await field.inputValue();
      suite.secrets.tokens.push(second);
      expect(second.startsWith('whsec_') && second !== first).toBe(true);
      expect(await field.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
      await page.getByText(ui.previousUntil).waitFor();
      await checkPage(tab, 'fr-webhooks-rotated');
      await page.getByRole('button', { name: ui.done, exact: true }).click();

      await page.getByRole('button', { name: `${ui.deleteWebhook} ${url}`, exact: true }).click();
      const remove = page.getByRole('dialog', { name: ui.deleteWebhookTitle(url), exact: true });
      await remove.getByRole('button', { name: ui.deleteWebhookConfirm, exact: true }).click();
      await waitForStatus(page, ui.webhookDeleted(url));
      // The button pressed went with its row: the focus is on the page's title, not lost.
      const title = page.getByRole('heading', { level: 1, name: ui.webhooksTitle, exact: true });
      expect(await title.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
      await expect
        .poll(async () => (await tableRecords(page, ui.webhooksCaption)).some((r) => r[ui.webhookUrlColumn] === url))
        .toBe(false);
      const left = await adminOk(suite.server, suite.server.operatorToken, 'GET', '/admin/webhooks');
      expect(JSON.stringify(left).includes(url)).toBe(false);
      await closeClean(tab, suite.secrets);
    },
    TEST_TIMEOUT,
  );

  test(
    'an author sees its own endpoints only, on a phone’s screen; another’s deliveries are not found',
    async () => {
      const { server } = suite;
      const own = `${receiver.url}/hooks/author`;
      const everyone = `${receiver.url}/hooks/everyone`;
      await adminOk(server, authorToken, 'POST', '/admin/webhooks', { url: own, events: ['key.issued'] });
      const all = await adminOk(server, server.operatorToken, 'POST', '/admin/webhooks', {
        url: everyone,
        events: ['key.revoked'],
      });
      suite.secrets.tokens.push(String(all.secret));
      await issueKey(suite, 'crochet');

      const tab = await openConsole(suite.browser, server, 'en', { viewport: PHONE });
      const { page, ui } = tab;
      const pageWidth = () => page.evaluate<number>('document.documentElement.scrollWidth');
      await signIn(tab, authorToken);
      await goTo(tab, '#/webhooks', ui.webhooksTitle);
      await expect
        .poll(async () => (await tableRecords(page, ui.webhooksCaption)).map((row) => row[ui.webhookUrlColumn]))
        .toContain(own);
      const urls = (await tableRecords(page, ui.webhooksCaption)).map((row) => row[ui.webhookUrlColumn]);
      expect(urls.includes(everyone)).toBe(false);
      // An author's endpoints are its own: no author column, no author to choose.
      expect(await page.getByLabel(ui.webhookAuthor, { exact: true }).count()).toBe(0);
      expect(await page.getByRole('columnheader', { name: ui.webhookAuthorColumn, exact: true }).count()).toBe(0);
      expect(await pageWidth()).toBeLessThanOrEqual(PHONE.width);
      await checkPage(tab, 'phone-webhooks');

      await page.getByRole('link', { name: `${ui.deliveriesLink} ${own}`, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: ui.deliveriesTitle, exact: true }).waitFor();
      await firstDeliveryWhen(page, ui, (r) => r[ui.deliveryStatus] === ui.delivered);
      expect(await pageWidth()).toBeLessThanOrEqual(PHONE.width);
      await checkPage(tab, 'phone-webhook-deliveries');

      await goTo(tab, `#/webhooks/${String(all.id)}`, ui.deliveriesTitle);
      await page.getByText(ui.deliveriesMissing, { exact: true }).waitFor();
      await waitForAlert(page, ui.notFound);
      expect(await page.getByRole('table').count()).toBe(0);
      await closeClean(tab, { tokens: [...suite.secrets.tokens, authorToken] });
    },
    TEST_TIMEOUT,
  );
});
