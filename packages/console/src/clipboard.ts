/**
 * Copies a secret shown once. The Clipboard API needs a secure context and the user's permission;
 * where it is missing or refused, the text is selected in its field so Ctrl+C (Cmd+C) copies it.
 */
export async function copyText(text: string, field: HTMLTextAreaElement | null): Promise<'copied' | 'selected'> {
  try {
    await navigator.clipboard.writeText(text);
    return 'copied';
  } catch {
    field?.focus();
    field?.select();
    return 'selected';
  }
}
