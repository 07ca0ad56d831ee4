import { ValidationError } from '@licence/core';
import { preferredLanguage } from '../http/index.js';
import { HttpError } from '../http/index.js';
import type { Headers } from '../http/index.js';
import type { ConsoleAssets, ServiceRequest, ServiceResponse } from '../http/index.js';

/**
 * The console (docs/protocol.md#console): its page at `/console` and its files under `/console/`,
 * served while the admin API is on. A static page that talks to the admin API with a token kept in
 * the tab's `sessionStorage` and sent as `Authorization: Bearer` (no cookie, so no CSRF surface).
 * Every answer here, errors included, carries CONSOLE_HEADERS: the page loads nothing from
 * elsewhere, runs no inline script, and is never framed.
 */

export const CONSOLE_PATH = '/console';

/** docs/protocol.md#console: the headers of every console answer (with `Cache-Control: no-store`). */
export const CONSOLE_HEADERS: Headers = {
  'Content-Security-Policy':
    "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

const INDEX = 'index.html';
/** What the page's `<html>` element must start with, so that its language can be set. */
const HTML_EN = '<html lang="en"';
const CONSOLE_ALLOW = 'GET, HEAD';

/** True when `path` is the console's: `/console` or below. */
export function isConsolePath(path: string): boolean {
  return path === CONSOLE_PATH || path.startsWith(`${CONSOLE_PATH}/`);
}

/**
 * ServiceOptions `console`, checked once at creation: every file a type and a text, and an
 * `index.html` whose `<html>` element starts `<html lang="en"` (its language is set per request).
 * Null when no console is given.
 */
export function checkedConsoleAssets(value: ConsoleAssets | undefined): ConsoleAssets | null {
  if (value === undefined) return null;
  const fault = (detail: string) => new ValidationError('console', `console: ${detail}`);
  for (const [name, file] of Object.entries(value.files)) {
    if (typeof file.type !== 'string' || typeof file.body !== 'string') {
      throw fault(`${name}: expected {type, body} strings`);
    }
  }
  const index = Object.hasOwn(value.files, INDEX) ? value.files[INDEX] : undefined;
  if (index === undefined) throw fault(`files must hold ${INDEX}`);
  if (!index.body.includes(HTML_EN)) throw fault(`${INDEX} must hold ${HTML_EN}`);
  return value;
}

/** `index.html` in the language `Accept-Language` prefers, French or English (English by default). */
function page(html: string, request: ServiceRequest): string {
  const lang = preferredLanguage(request.headers['accept-language'], ['en', 'fr']);
  return lang === 'en' ? html : html.replace(HTML_EN, `<html lang="${lang}"`);
}

/**
 * Answers a console request. `/console/` is sent to `/console` (a relative `Location`, so a path
 * prefix in front of the service is kept); the page is not served under `/console/` either, where
 * its relative links would point elsewhere. Errors are thrown as HttpErrors: the caller answers
 * them with CONSOLE_HEADERS.
 */
export function handleConsole(assets: ConsoleAssets, request: ServiceRequest): ServiceResponse {
  const name = request.path === CONSOLE_PATH ? INDEX : request.path.slice(CONSOLE_PATH.length + 1);
  const isPage = request.path === CONSOLE_PATH;
  const file = isPage || (name !== INDEX && Object.hasOwn(assets.files, name)) ? assets.files[name] : undefined;
  if (name !== '' && file === undefined) throw new HttpError('not-found', 'no such console file');
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    throw new HttpError('method-not-allowed', 'use GET or HEAD on this path', { headers: { Allow: CONSOLE_ALLOW } });
  }
  if (file === undefined) return { status: 308, headers: { ...CONSOLE_HEADERS, Location: '../console' }, body: '' };
  const body = isPage ? page(file.body, request) : file.body;
  const headers = { ...CONSOLE_HEADERS, 'Content-Type': file.type, ...(isPage ? { Vary: 'Accept-Language' } : {}) };
  return { status: 200, headers, body: request.method === 'HEAD' ? '' : body };
}
