import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { browserSkipReason, openPage } from './browser.js';
import { adminOk } from './console-server.js';
import { consoleSuite } from './console-suite.js';

/**
 * docs/protocol.md#favicon in Debian's Chromium against a real `licence serve`: a buyer page loads
 * every resource it names (its style sheet and the icon its head links, through its own
 * `img-src 'self'`) with no failed request and no console error; and the icon a browser asks of
 * `/`, which names none, is found.
 */

const TEST_TIMEOUT = 120_000;

/** What went wrong in a tab: answers of 400 and above (but `allowed`), failed requests, console errors. */
function watch(page: Page, allowed: (url: string) => boolean): string[] {
  const faults: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400 && !allowed(response.url())) {
      faults.push(`${response.status()} ${new URL(response.url()).pathname}`);
    }
  });
  page.on('requestfailed', (request) => faults.push(`failed ${new URL(request.url()).pathname}`));
  page.on('console', (message) => {
    if (message.type() === 'error') faults.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => faults.push(`uncaught: ${error.message}`));
  return faults;
}

/**
 * The page's icon, loaded as the page's own image (so under its CSP, as the tab's icon is): its
 * address and drawn width, 0 when the image did not load.
 */
async function pageIcon(page: Page): Promise<{ readonly href: string; readonly width: number }> {
  return page.evaluate(`new Promise((resolve) => {
    const href = document.querySelector('link[rel="icon"]')?.href ?? '';
    const image = new Image();
    image.onload = () => resolve({ href, width: image.naturalWidth });
    image.onerror = () => resolve({ href, width: 0 });
    image.src = href;
  })`);
}

describe.skipIf(browserSkipReason() !== undefined)('the service’s icon in a browser', () => {
  const suite = consoleSuite();

  test(
    'a buyer page loads its style sheet and its icon: no failed request, no console error',
    async () => {
      const { server } = suite;
      const operator = server.operatorToken;
      await adminOk(server, operator, 'POST', '/admin/authors', { id: 'atelier', name: 'Atelier' });
      await adminOk(server, operator, 'POST', '/admin/products', { id: 'crochet', name: 'Crochet', author: 'atelier' });
      const issued = await adminOk(server, operator, 'POST', '/admin/keys', { produit: 'crochet', kind: 'buyer' });
      suite.secrets.keys.push(String(issued.cle));
      const made = await adminOk(server, operator, 'POST', `/admin/keys/${String(issued.cle)}/buyer-link`, {});
      const link = String(made.url);
      suite.secrets.tokens.push(link.slice(`${server.url}/buyer/`.length));

      const { context, page, urls } = await openPage(suite.browser);
      const faults = watch(page, () => false);
      const response = await page.goto(link);
      expect(response?.status()).toBe(200);
      const icon = await pageIcon(page);
      expect(icon.href).toBe(`${server.url}/favicon.ico`);
      expect(icon.width).toBeGreaterThan(0);
      await context.close();
      expect(faults).toEqual([]);
      expect(urls.some((url) => url === `${server.url}/buyer/buyer.css`)).toBe(true);
      // The server answered the icon (the tab's own request may come from the browser process,
      // which the page's request events do not see; the server's log line does).
      const lines = server.output.join('').split('\n');
      expect(lines.some((line) => line.includes('"route":"/favicon.ico"') && line.includes('"status":200'))).toBe(true);
    },
    TEST_TIMEOUT,
  );

  test(
    '`/` is the JSON 404 of an API, and the icon a browser asks of it is there',
    async () => {
      const { server } = suite;
      const { context, page } = await openPage(suite.browser);
      // The document itself is the 404 on purpose; nothing else may fail.
      const faults = watch(page, (url) => url === `${server.url}/`);
      const response = await page.goto(`${server.url}/`);
      expect([response?.status(), response?.headers()['content-type']]).toEqual([404, 'application/problem+json']);
      // What Chromium asks for a page that names no icon, as a page would load it.
      const status = await page.evaluate(`fetch('/favicon.ico').then((answer) => answer.status)`);
      expect(status).toBe(200);
      await context.close();
      expect(
        faults.filter(
          (fault) => !fault.startsWith('console: Failed to load resource: the server responded with a status of 404'),
        ),
      ).toEqual([]);
    },
    TEST_TIMEOUT,
  );
});
