import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/**
 * The browser of the console's tests: Debian's Chromium (`apt-get install chromium`, done by
 * .ci/run), driven by playwright-core. The npm registry has no browser build that playwright could
 * download on this network, so the tests never ask it to.
 */
export const CHROMIUM = '/usr/bin/chromium';

// Headless, no sandbox (CI runs as root), and none of Chromium's own background connections
// (updates, sync, QUIC probes, the first-run pages): this network is closed, and those would fail
// or stall the start.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The desktop window of most tests, and the phone one (a small Android screen, CSS pixels). */
export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 360, height: 740 } as const;

const inCi = process.env.CI === 'true';

/**
 * Why the browser tests cannot run here, or undefined when they can. In CI this is always
 * undefined: a missing Chromium must fail there (launchBrowser says so), never skip the suite.
 */
export function browserSkipReason(): string | undefined {
  if (inCi || existsSync(CHROMIUM)) return undefined;
  const reason = `${CHROMIUM} is missing (apt-get install chromium): the console's browser tests are skipped outside CI`;
  process.stderr.write(`${reason}\n`);
  return reason;
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: .ci/run installs Debian's chromium package; under CI=true the browser tests never skip`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

export interface ContextOptions {
  /** The browser's language (navigator.language and Accept-Language); default 'en-GB'. */
  readonly locale?: string;
  readonly viewport?: { readonly width: number; readonly height: number };
  /** False: a browser with JavaScript off (the buyer's pages work without it); default true. */
  readonly javaScriptEnabled?: boolean;
}

/**
 * A fresh context (its own sessionStorage, no cookies) and its page. Every URL the page asks for
 * is kept in `urls`, for the check that no token ever travels in one (docs/protocol.md#console).
 */
export async function openPage(
  browser: Browser,
  options: ContextOptions = {},
): Promise<{ context: BrowserContext; page: Page; urls: string[] }> {
  const context = await browser.newContext({
    locale: options.locale ?? 'en-GB',
    viewport: { ...(options.viewport ?? DESKTOP) },
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    // Screenshots of a still page: no transition caught half-way.
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  return { context, page, urls };
}
