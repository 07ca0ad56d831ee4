/**
 * Saves text as a file through a Blob URL and a transient link: nothing leaves the browser, and a
 * `blob:` download needs nothing from the CSP (docs/protocol.md#console).
 */
export function downloadText(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next turn: some browsers start the download after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
