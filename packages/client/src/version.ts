/** This package's version, sent in the default User-Agent (a test keeps it equal to package.json). */
export const CLIENT_VERSION = '0.1.0';

/**
 * The User-Agent sent when the product gives none: it names the product first (a custom
 * User-Agent string naming the product), so the service's filter of default library agents
 * (docs/protocol.md#user-agent-filter) lets it through.
 */
export function defaultUserAgent(produit: string): string {
  return `${produit} (@licence/client ${CLIENT_VERSION})`;
}
