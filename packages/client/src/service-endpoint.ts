import { typeName, ValidationError } from '@licence/core';

/** The endpoint path (docs/protocol.md#request); `/api/license` is the same handler. */
export const ENDPOINT_PATH = '/api/licence';

const ENDPOINT = /\/api\/licen[cs]e\/?$/;

/**
 * The verdict endpoint from the `url` option: the service's base address (`{base_url}`), to
 * which `/api/licence` is added, or the endpoint itself (docs/protocol.md#request). There is no
 * public service (each author runs one), so there is no default: the option is required.
 *
 * Messages never repeat the value: it may hold credentials.
 */
export function serviceEndpoint(url: unknown): string {
  if (url === undefined) {
    throw new ValidationError(
      'url',
      'url: required: the address of your licence service, such as https://licences.example.com',
    );
  }
  if (typeof url !== 'string') throw new ValidationError('url', `url: expected a string, got ${typeName(url)}`);
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch (error) {
    // The platform's message may quote the input; ours names the rule only.
    if (error instanceof TypeError) throw new ValidationError('url', 'url: not an absolute http or https URL');
    throw error;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ValidationError('url', `url: expected an http or https URL, got ${parsed.protocol.slice(0, 16)}`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new ValidationError('url', 'url: must not hold a user name or password (the endpoint takes no credential)');
  }
  parsed.hash = '';
  if (!ENDPOINT.test(parsed.pathname)) {
    parsed.pathname = `${parsed.pathname.replace(/\/+$/, '')}${ENDPOINT_PATH}`;
  }
  return parsed.href;
}
