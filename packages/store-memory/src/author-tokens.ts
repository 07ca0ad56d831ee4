import type { MemoryRun, MemoryState, MemoryTokenRow } from './state.js';
import type { Store } from '@licence/service';

/** A token as listed: a fresh frozen copy, without its hash. */
function toRecord(row: MemoryTokenRow): Store.AuthorTokenRecord {
  return Object.freeze({
    id: row.id,
    authorId: row.authorId,
    label: row.label,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
  });
}

function oldestFirst(a: MemoryTokenRow, b: MemoryTokenRow): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function findByHash(state: MemoryState, hash: string): MemoryTokenRow | undefined {
  for (const row of state.tokens.values()) {
    if (row.hash === hash) return row;
  }
  return undefined;
}

/**
 * The memory store's author tokens (docs/protocol.md#authors): SHA-256 of each token, never the
 * token; a token is deleted only through its own author.
 */
export function memoryAuthorTokens(
  state: MemoryState,
  run: MemoryRun,
): Pick<Store, 'addAuthorToken' | 'listAuthorTokens' | 'deleteAuthorToken' | 'findAuthorToken' | 'touchAuthorToken'> {
  return {
    addAuthorToken: (token) =>
      run(() => {
        if (!state.authors.has(token.authorId)) return { result: 'no-author' as const };
        // Ids and hashes are random: a clash is a bug of the caller, as a SQL store's UNIQUE says.
        if (state.tokens.has(token.id) || findByHash(state, token.hash) !== undefined) {
          throw new Error('memory store: an author token with this id or hash already exists');
        }
        state.tokens.set(token.id, { ...token, lastUsedAt: null });
        return { result: 'created' as const, id: token.id };
      }),
    listAuthorTokens: (authorId) =>
      run(() =>
        [...state.tokens.values()]
          .filter((row) => row.authorId === authorId)
          .sort(oldestFirst)
          .map(toRecord),
      ),
    deleteAuthorToken: (authorId, tokenId) =>
      run(() => state.tokens.get(tokenId)?.authorId === authorId && state.tokens.delete(tokenId)),
    findAuthorToken: (hash) =>
      run(() => {
        const row = findByHash(state, hash);
        return row === undefined ? null : toRecord(row);
      }),
    touchAuthorToken: (tokenId, now) =>
      run(() => {
        const row = state.tokens.get(tokenId);
        if (row !== undefined) row.lastUsedAt = now;
      }),
  };
}
