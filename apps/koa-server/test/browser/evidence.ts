import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * What each browser test leaves behind and checks on every page it reaches: a full-page
 * screenshot (test-results/screenshots/<name>.png, git-ignored, to look at after a run) and an
 * axe-core accessibility check.
 */

export const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-results', 'screenshots');

/** The axe impacts that fail a page; minor and moderate findings are printed, not failed. */
const FAILING = new Set(['serious', 'critical']);

interface Finding {
  readonly id: string;
  readonly impact: string;
  readonly help: string;
  readonly targets: string[];
}

/** The full-page screenshot of the page as it is now. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/**
 * axe-core on the whole page: no serious or critical violation. AxeBuilder injects axe with
 * `page.evaluate`, which the DevTools protocol runs outside the page's CSP (`default-src 'self'`,
 * docs/protocol.md#console), so the console's own policy stays on for the check. Legacy mode runs
 * `axe.run` in the page itself: the console has no frame, and the default mode's second blank page
 * (to merge the frames' results) about doubled the time of each check.
 */
export async function checkAccessibility(page: Page, name: string): Promise<void> {
  const results = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  // axe did run its rules on the page (a check that ran nothing would pass anything).
  expect(results.passes.length, `axe, ${name}: rules that passed`).toBeGreaterThan(10);
  const findings: Finding[] = results.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact ?? 'unknown',
    help: violation.help,
    targets: violation.nodes.map((node) => node.target.join(' ')),
  }));
  const minor = findings.filter((finding) => !FAILING.has(finding.impact));
  if (minor.length > 0) {
    process.stdout.write(`axe, ${name}: ${minor.length} minor or moderate finding(s)\n${describe(minor)}\n`);
  }
  const failing = findings.filter((finding) => FAILING.has(finding.impact));
  expect(describe(failing), `axe, ${name}: serious or critical violations`).toBe('');
}

/** Screenshot first (so a page that fails axe is still there to look at), then axe. */
export async function evidence(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  await checkAccessibility(page, name);
}

function describe(findings: readonly Finding[]): string {
  return findings
    .map((finding) => `  ${finding.impact} ${finding.id}: ${finding.help} (${finding.targets.join(', ')})`)
    .join('\n');
}
