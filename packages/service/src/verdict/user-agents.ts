/**
 * The User-Agent filter (docs/protocol.md#user-agent-filter): a missing or empty User-Agent, or the
 * DEFAULT one of an HTTP library or API tool, is a 403. A product that names itself
 * (`MonTheme/1.2 (curl)`) passes, even when it mentions its library: each pattern matches the
 * library's default form at the START of the header only, as a whole product token, so substrings
 * never block (`curly-theme/1.0` passes, bare `curl` and `curl/8.5.0` do not).
 *
 * The list is exported so that the server can make it configurable (ServiceOptions
 * `blockedUserAgents`). Matching ignores case.
 */

/** One library default the filter refuses, with what shows it. */
export interface LibraryUserAgent {
  /** Matches the default at the start of the header, ignoring case. */
  readonly pattern: RegExp;
  /** The default as the library sends it. */
  readonly example: string;
  /** The library's source file or documentation that sets or shows that default. */
  readonly source: string;
}

/**
 * `name` as the whole first product token of the header: `name/...` (RFC 9110 10.1.5 `product =
 * token ["/" product-version]`) or `name` alone. Not `name` followed by anything else: a product
 * whose id happens to be `curl` sends `curl (@licence/client 0.1.0)` and passes.
 */
function product(name: string): RegExp {
  return new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:/|$)`, 'i');
}

/**
 * The defaults refused, each with its source (the same table is in docs/protocol.md#user-agent-filter).
 * Tools and libraries that send no User-Agent at all (libcurl itself, PHP's curl and streams,
 * Rust's hyper and reqwest, .NET's HttpClient) are already refused for sending none.
 */
export const LIBRARY_USER_AGENTS: readonly LibraryUserAgent[] = Object.freeze([
  // Command-line tools and API clients.
  {
    pattern: product('curl'),
    example: 'curl/8.5.0',
    source: 'https://github.com/curl/curl/blob/master/src/config2setopts.c',
  },
  {
    pattern: product('Wget'),
    example: 'Wget/1.21.3',
    source: 'https://git.savannah.gnu.org/cgit/wget.git/tree/src/http.c',
  },
  {
    pattern: product('HTTPie'),
    example: 'HTTPie/3.2.2',
    source: 'https://github.com/httpie/cli/blob/master/httpie/client.py',
  },
  {
    pattern: product('PostmanRuntime'),
    example: 'PostmanRuntime/7.36.0',
    source: 'https://github.com/postmanlabs/postman-runtime/blob/develop/lib/requester/core.js',
  },
  {
    pattern: product('insomnia'),
    example: 'insomnia/2023.5.8',
    source: 'https://github.com/Kong/insomnia/blob/develop/packages/insomnia/src/main/network/parse-header-strings.ts',
  },
  {
    pattern: /^Thunder Client \(https:\/\/www\.thunderclient\.com\)/i,
    example: 'Thunder Client (https://www.thunderclient.com)',
    source: 'https://github.com/thunderclient/thunder-client-support/issues/430',
  },
  {
    pattern: product('bruno-runtime'),
    example: 'bruno-runtime/1.20.0',
    source: 'https://github.com/usebruno/bruno/blob/main/packages/bruno-cli/src/utils/axios-instance.js',
  },
  {
    pattern: product('aria2'),
    example: 'aria2/1.37.0',
    source: 'https://github.com/aria2/aria2/blob/master/src/OptionHandlerFactory.cc',
  },
  {
    pattern: product('libcurl-agent'),
    example: 'libcurl-agent/1.0',
    source: 'https://github.com/curl/curl/blob/master/docs/examples/getinmemory.c',
  },
  // Python.
  {
    pattern: product('python-requests'),
    example: 'python-requests/2.31.0',
    source: 'https://github.com/psf/requests/blob/main/src/requests/utils.py',
  },
  {
    pattern: product('Python-urllib'),
    example: 'Python-urllib/3.11',
    source: 'https://github.com/python/cpython/blob/main/Lib/urllib/request.py',
  },
  {
    pattern: product('python-urllib3'),
    example: 'python-urllib3/2.2.1',
    source: 'https://github.com/urllib3/urllib3/blob/main/src/urllib3/connection.py',
  },
  {
    pattern: product('python-httpx'),
    example: 'python-httpx/0.27.0',
    source: 'https://github.com/encode/httpx/blob/master/httpx/_client.py',
  },
  {
    pattern: product('Python'),
    example: 'Python/3.11 aiohttp/3.9.1',
    source: 'https://github.com/aio-libs/aiohttp/blob/master/aiohttp/http.py',
  },
  {
    pattern: product('aiohttp'),
    example: 'aiohttp/3.9.1',
    source: 'https://github.com/aio-libs/aiohttp/blob/master/aiohttp/http.py',
  },
  {
    pattern: product('Python-httplib2'),
    example: 'Python-httplib2/0.22.0 (gzip)',
    source: 'https://github.com/httplib2/httplib2/blob/master/python3/httplib2/__init__.py',
  },
  {
    pattern: product('PycURL'),
    example: 'PycURL/7.45.2 libcurl/8.5.0 OpenSSL/3.0.13 zlib/1.3',
    source: 'https://github.com/pycurl/pycurl/blob/master/src/module.c',
  },
  {
    pattern: product('Scrapy'),
    example: 'Scrapy/2.11.0 (+https://scrapy.org)',
    source: 'https://github.com/scrapy/scrapy/blob/master/scrapy/settings/default_settings.py',
  },
  // Go, the JVM, Android, .NET.
  {
    pattern: product('Go-http-client'),
    example: 'Go-http-client/1.1',
    source: 'https://github.com/golang/go/blob/master/src/net/http/request.go',
  },
  {
    pattern: product('Java'),
    example: 'Java/17.0.9',
    source:
      'https://github.com/openjdk/jdk/blob/master/src/java.base/share/classes/sun/net/www/protocol/http/HttpURLConnection.java',
  },
  {
    pattern: product('Java-http-client'),
    example: 'Java-http-client/17.0.9',
    source:
      'https://github.com/openjdk/jdk/blob/master/src/java.net.http/share/classes/jdk/internal/net/http/HttpRequestImpl.java',
  },
  {
    pattern: product('Apache-HttpClient'),
    example: 'Apache-HttpClient/4.5.14 (Java/17.0.9)',
    source:
      'https://github.com/apache/httpcomponents-client/blob/4.5.x/httpclient/src/main/java/org/apache/http/impl/client/HttpClientBuilder.java',
  },
  {
    pattern: product('Apache-HttpAsyncClient'),
    example: 'Apache-HttpAsyncClient/5.2.1 (Java/17.0.9)',
    source:
      'https://github.com/apache/httpcomponents-client/blob/master/httpclient5/src/main/java/org/apache/hc/client5/http/impl/async/HttpAsyncClientBuilder.java',
  },
  {
    pattern: product('Jakarta Commons-HttpClient'),
    example: 'Jakarta Commons-HttpClient/3.1',
    source:
      'https://svn.apache.org/repos/asf/httpcomponents/oac.hc3x/trunk/src/java/org/apache/commons/httpclient/params/DefaultHttpParamsFactory.java',
  },
  {
    pattern: product('Apache-CXF'),
    example: 'Apache-CXF/3.5.5',
    source:
      'https://github.com/apache/cxf/blob/main/rt/transports/http/src/main/java/org/apache/cxf/transport/http/Headers.java',
  },
  {
    pattern: product('Jetty'),
    example: 'Jetty/9.4.53.v20231009',
    source:
      'https://github.com/jetty/jetty.project/blob/jetty-9.4.x/jetty-client/src/main/java/org/eclipse/jetty/client/HttpClient.java',
  },
  {
    pattern: product('ReactorNetty'),
    example: 'ReactorNetty/1.1.13',
    source:
      'https://github.com/reactor/reactor-netty/blob/main/reactor-netty-http/src/main/java/reactor/netty/http/client/HttpClient.java',
  },
  {
    pattern: product('Vert.x-WebClient'),
    example: 'Vert.x-WebClient/4.5.0',
    source:
      'https://github.com/vert-x3/vertx-web/blob/master/vertx-web-client/src/main/java/io/vertx/ext/web/client/WebClientOptions.java',
  },
  {
    pattern: product('okhttp'),
    example: 'okhttp/4.12.0',
    source: 'https://github.com/square/okhttp/blob/parent-4.12.0/okhttp/src/main/kotlin/okhttp3/internal/Util.kt',
  },
  {
    pattern: product('Ktor client'),
    example: 'Ktor client',
    source:
      'https://github.com/ktorio/ktor/blob/main/ktor-client/ktor-client-core/common/src/io/ktor/client/engine/Utils.kt',
  },
  {
    pattern: product('Dalvik'),
    example: 'Dalvik/2.1.0 (Linux; U; Android 14; Pixel 8 Build/UD1A.230803.041)',
    source:
      'https://android.googlesource.com/platform/frameworks/base/+/refs/heads/main/core/java/com/android/internal/os/RuntimeInit.java',
  },
  {
    pattern: product('RestSharp'),
    example: 'RestSharp/110.2.0.0',
    source: 'https://github.com/restsharp/RestSharp/blob/dev/src/RestSharp/Options/RestClientOptions.cs',
  },
  // JavaScript runtimes and libraries.
  {
    pattern: product('axios'),
    example: 'axios/1.6.2',
    source: 'https://github.com/axios/axios/blob/v1.x/lib/adapters/http.js',
  },
  {
    pattern: product('node-fetch'),
    example: 'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)',
    source: 'https://github.com/node-fetch/node-fetch/blob/main/src/request.js',
  },
  {
    pattern: product('undici'),
    example: 'undici',
    source: 'https://github.com/nodejs/undici/blob/main/lib/web/fetch/index.js',
  },
  {
    pattern: product('node'),
    example: 'node',
    source: 'https://github.com/nodejs/undici/blob/main/lib/web/fetch/index.js',
  },
  {
    pattern: product('Node.js'),
    example: 'Node.js/20.11.0 (linux; x64)',
    source: 'https://github.com/gr2m/universal-user-agent/blob/main/index.js',
  },
  {
    pattern: product('node-superagent'),
    example: 'node-superagent/3.8.3',
    source: 'https://github.com/ladjs/superagent/blob/v3.8.3/lib/node/index.js',
  },
  {
    pattern: /^got \(https:\/\/github\.com\/sindresorhus\/got\)/i,
    example: 'got (https://github.com/sindresorhus/got)',
    source: 'https://github.com/sindresorhus/got/blob/main/source/core/options.ts',
  },
  {
    pattern: product('Deno'),
    example: 'Deno/1.39.0',
    source: 'https://github.com/denoland/deno/blob/v1.39.0/cli/version.rs',
  },
  {
    pattern: product('Bun'),
    example: 'Bun/1.0.20',
    source: 'https://github.com/oven-sh/bun/blob/main/src/Global.zig',
  },
  // PHP, Perl, Ruby, Dart.
  {
    pattern: product('GuzzleHttp'),
    example: 'GuzzleHttp/7',
    source: 'https://github.com/guzzle/guzzle/blob/7.8/src/Utils.php',
  },
  {
    pattern: product('Symfony HttpClient'),
    example: 'Symfony HttpClient/Curl',
    source: 'https://github.com/symfony/symfony/blob/7.1/src/Symfony/Component/HttpClient/CurlHttpClient.php',
  },
  {
    pattern: product('libwww-perl'),
    example: 'libwww-perl/6.72',
    source: 'https://github.com/libwww-perl/libwww-perl/blob/master/lib/LWP/UserAgent.pm',
  },
  {
    pattern: product('Ruby'),
    example: 'Ruby',
    source: 'https://github.com/ruby/net-http/blob/master/lib/net/http/generic_request.rb',
  },
  {
    pattern: product('rest-client'),
    example: 'rest-client/2.1.0 (linux-gnu x86_64) ruby/3.2.2p53',
    source: 'https://github.com/rest-client/rest-client/blob/master/lib/restclient/platform.rb',
  },
  {
    pattern: product('http.rb'),
    example: 'http.rb/5.1.1',
    source: 'https://github.com/httprb/http/blob/main/lib/http/request.rb',
  },
  {
    pattern: /^Faraday v\d/i,
    example: 'Faraday v2.7.10',
    source: 'https://github.com/lostisland/faraday/blob/main/lib/faraday/connection.rb',
  },
  {
    pattern: /^Typhoeus - https:\/\/github\.com\/typhoeus\/typhoeus/i,
    example: 'Typhoeus - https://github.com/typhoeus/typhoeus',
    source: 'https://github.com/typhoeus/typhoeus/blob/master/lib/typhoeus.rb',
  },
  {
    pattern: product('Dart'),
    example: 'Dart/3.2 (dart:io)',
    source: 'https://github.com/dart-lang/sdk/blob/main/sdk/lib/_http/http_impl.dart',
  },
]);

/** The patterns of `LIBRARY_USER_AGENTS`: the default of ServiceOptions `blockedUserAgents`. */
export const DEFAULT_BLOCKED_USER_AGENTS: readonly RegExp[] = Object.freeze(
  LIBRARY_USER_AGENTS.map((entry) => entry.pattern),
);

/**
 * True when the request must be refused with 403 (docs/protocol.md#user-agent-filter): no
 * User-Agent, one made only of white space, or one that a pattern of `blocked` matches.
 */
export function isBlockedUserAgent(
  userAgent: string | undefined,
  blocked: readonly RegExp[] = DEFAULT_BLOCKED_USER_AGENTS,
): boolean {
  if (userAgent === undefined) return true;
  const value = userAgent.trim();
  if (value === '') return true;
  return blocked.some((pattern) => {
    // A caller-supplied /g or /y pattern keeps `lastIndex` between calls; reset it so the
    // answer never depends on the previous request.
    pattern.lastIndex = 0;
    return pattern.test(value);
  });
}
