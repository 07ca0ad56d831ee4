/**
 * `host:port` as it is written in a URL's authority (RFC 3986 3.2.2): an IPv6 address in brackets.
 * The one spelling of the listen address in the banner, the log and the start errors.
 */
export function hostPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}
