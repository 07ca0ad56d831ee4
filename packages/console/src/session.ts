/**
 * The signed-in token, kept in the tab's sessionStorage and nowhere else (docs/protocol.md#console):
 * it dies with the tab, is never written to localStorage, a cookie or a URL, and leaves the tab only
 * in `Authorization` headers. The storage is handed in, so tests need no browser.
 */

const TOKEN_KEY = 'licence-console.token';

type TokenStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The token of this tab, or null when signed out (or when the storage cannot be read). */
export function loadToken(storage: TokenStorage): string | null {
  try {
    const token = storage.getItem(TOKEN_KEY);
    return token === null || token === '' ? null : token;
  } catch {
    return null;
  }
}

/** Keeps the token for this tab; a storage that refuses (private mode, quota) keeps it in memory only. */
export function saveToken(storage: TokenStorage, token: string): void {
  try {
    storage.setItem(TOKEN_KEY, token);
  } catch {
    // The app holds the token in its state anyway: the tab works, a reload signs out.
  }
}

export function clearToken(storage: TokenStorage): void {
  try {
    storage.removeItem(TOKEN_KEY);
  } catch {
    // Nothing was kept then.
  }
}

/** What a user pastes: surrounding white space dropped (a Bearer token holds none, docs/protocol.md#administration). */
export function cleanToken(input: string): string {
  return input.trim();
}
