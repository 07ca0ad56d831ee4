/**
 * docs/protocol.md#privacy: the request log (and so each client IP in it) is kept twelve months.
 * "Twelve months" is taken as calendar months: the cut-off is the same UTC date and time one year
 * before `nowMs`, in whole seconds. On 29 February the date a year before does not exist and rolls
 * over to 1 March, which deletes one day early: the error falls on the side of privacy. Entries
 * logged strictly before the cut-off are deleted.
 */
export function twelveMonthsBefore(nowMs: number): number {
  const date = new Date(nowMs);
  date.setUTCMonth(date.getUTCMonth() - 12);
  return Math.floor(date.getTime() / 1000);
}
