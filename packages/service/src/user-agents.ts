/**
 * The User-Agent filter (docs/protocol.md#user-agent-filter): a missing or empty User-Agent, or the
 * DEFAULT one of an HTTP library, is a 403. A product that names itself (`MonTheme/1.2 (curl)`)
 * passes, even when it mentions its library: each pattern matches the library's default form at the
 * START of the header only, so substrings never block.
 *
 * The list is exported so that the server can make it configurable (ServiceOptions
 * `blockedUserAgents`). Matching ignores case.
 */

/**
 * The list of docs/protocol.md#user-agent-filter, each as the library sends it by default, then a
 * few more library defaults in the spirit of its "...": `product/version` or the bare name.
 */
export const DEFAULT_BLOCKED_USER_AGENTS: readonly RegExp[] = Object.freeze([
  /^curl\//i, // curl/8.5.0
  /^Wget\//i, // Wget/1.21.3
  /^python-requests\//i, // python-requests/2.31.0
  /^Python-urllib\//i, // Python-urllib/3.11
  /^Go-http-client\//i, // Go-http-client/1.1, /2.0
  /^Java(?:-http-client)?\//i, // Java/1.8.0_392 (HttpURLConnection), Java-http-client/17 (java.net.http)
  /^Apache-HttpClient\//i, // Apache-HttpClient/4.5.14 (Java/17)
  /^okhttp\//i, // okhttp/4.12.0
  /^axios\//i, // axios/1.6.2
  /^node-fetch(?:\/|$)/i, // node-fetch/1.0 (+https://github.com/bitinn/node-fetch) (v2), node-fetch (v3)
  /^undici(?:\/|$)/i, // undici: Node 18-20's fetch
  /^node(?:\/|$)/i, // node: Node 21+'s fetch
  /^GuzzleHttp\//i, // GuzzleHttp/7
  /^libwww-perl\//i, // libwww-perl/6.72
  // Beyond the documented list ("..."): other defaults that name only a library or a runtime.
  /^python-httpx\//i, // python-httpx/0.27.0
  /^Python\/\d/i, // Python/3.11 aiohttp/3.9.1
  /^Ruby$/i, // Ruby's Net::HTTP
  /^Dart\//i, // Dart/3.2 (dart:io)
  /^Deno\//i, // Deno/1.39.0
  /^Bun\//i, // Bun/1.0.20
]);

/**
 * True when the request must be refused with 403 (docs/protocol.md#user-agent-filter): no
 * User-Agent, one made only of white space, or one that a pattern of `blocked` matches.
 */
export function isBlockedUserAgent(
  userAgent: string | undefined,
  blocked: readonly RegExp[] = DEFAULT_BLOCKED_USER_AGENTS,
): boolean {
  if (userAgent === undefined || userAgent.trim() === '') return true;
  const value = userAgent.trim();
  return blocked.some((pattern) => {
    // A caller-supplied /g or /y pattern keeps `lastIndex` between calls; reset it so the
    // answer never depends on the previous request.
    pattern.lastIndex = 0;
    return pattern.test(value);
  });
}
