/**
 * DATABASE_URL as the startup banner may print it: whole when it holds no password, so
 * the printed admin commands can be pasted as they are; otherwise with the password replaced by
 * `<password>`, since the banner ends up in terminals and log collectors (docs/protocol.md#privacy:
 * no secret in an output). A value that is not a URL (loadConfig refuses those) prints as a
 * placeholder.
 */
export function printableDatabaseUrl(url: string): string {
  if (!URL.canParse(url)) return '<DATABASE_URL>';
  const parsed = new URL(url);
  if (parsed.password === '') return url;
  parsed.password = 'PASSWORD';
  // URL would percent-encode the angle brackets of a placeholder written through the setter.
  return parsed.href.replace(':PASSWORD@', ':<password>@');
}
