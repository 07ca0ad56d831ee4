/** One built-in staging pattern (docs/protocol.md#staging-hosts) and where it comes from. */
export interface BuiltinStagingPattern {
  /** A normalised pattern, as parseStagingPattern returns it. */
  readonly pattern: string;
  readonly provider: string;
  /** The provider's own documentation that names the domain as staging, development or temporary. */
  readonly source: string;
}

/**
 * Well-known hosting providers' staging and temporary domains (docs/protocol.md#staging-hosts).
 * Only domains that the provider's own documentation describes as staging, development, test or
 * temporary (to be replaced by the site's own domain) are listed, never one a live site is meant to
 * run on: Pantheon's `live-*.pantheonsite.io` is its Live environment, so only `dev-*` and `test-*`
 * are here. Every pattern ends in a domain of the provider, so nobody else can put a site under it.
 * The table of docs/protocol.md#staging-hosts lists the same entries; staging-builtin.test.ts
 * checks that each one is a normalised pattern.
 */
export const BUILTIN_STAGING_PATTERNS: readonly BuiltinStagingPattern[] = Object.freeze([
  {
    pattern: '*.wpengine.com',
    provider: 'WP Engine',
    source: 'https://wpengine.com.au/support/staging/',
  },
  {
    pattern: '*.wpenginepowered.com',
    provider: 'WP Engine',
    source: 'https://wpengine.co.uk/support/environments/',
  },
  {
    pattern: '*.kinsta.cloud',
    provider: 'Kinsta',
    source: 'https://kinsta.com/help/wordpress-temporary-url/',
  },
  {
    pattern: '*.kinsta.com',
    provider: 'Kinsta',
    source: 'https://kinsta.com/help/wordpress-temporary-url/',
  },
  {
    pattern: 'dev-*.pantheonsite.io',
    provider: 'Pantheon',
    source: 'https://docs.pantheon.io/guides/domains/platform-domains',
  },
  {
    pattern: 'test-*.pantheonsite.io',
    provider: 'Pantheon',
    source: 'https://docs.pantheon.io/guides/domains/platform-domains',
  },
  {
    pattern: '*.flywheelstaging.com',
    provider: 'Flywheel',
    source: 'https://getflywheel.com/wordpress-support/how-do-i-get-started-with-staging/',
  },
  {
    pattern: 'staging-*.wpcomstaging.com',
    provider: 'WordPress.com',
    source: 'https://agencieshelp.automattic.com/knowledge-base/site-creation-configuration/',
  },
  {
    pattern: '*.mystagingwebsite.com',
    provider: 'Pressable',
    source: 'https://pressable.com/knowledgebase/how-sites-staging-websites-and-website-clones-work-at-pressable/',
  },
  {
    pattern: '*.myftpupload.com',
    provider: 'GoDaddy Managed WordPress',
    source: 'https://www.godaddy.com/help/why-use-a-temporary-domain-name-with-managed-hosting-for-wordpress-8996',
  },
  {
    pattern: '*.temp.domains',
    provider: 'HostGator, Bluehost',
    source: 'https://www.hostgator.com/help/article/temporary-url',
  },
  {
    pattern: '*.server.servebolt.cloud',
    provider: 'Servebolt',
    source: 'https://wpplugin.dev.servebolt.com/docs/environment-file',
  },
  {
    pattern: '*.stackstaging.com',
    provider: '20i',
    source: 'https://docs.20i.com/wordpress-support/difference-between-staging-site-stackstaging',
  },
  {
    pattern: '*.cpanel.site',
    provider: 'cPanel (temporary domains)',
    source: 'https://api.docs.cpanel.net/specifications/cpanel.openapi/domain/domain-convert_temporary_to_registered',
  },
]);

/** The patterns alone, in the order of BUILTIN_STAGING_PATTERNS. */
export const BUILTIN_STAGING_HOSTS: readonly string[] = Object.freeze(
  BUILTIN_STAGING_PATTERNS.map((entry) => entry.pattern),
);
