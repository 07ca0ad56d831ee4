import { describe, expect, it } from 'vitest';
import { cleanToken, clearToken, loadToken, saveToken } from './session.js';

/** A Storage of the Web Storage API's shape, over a Map (Node has no sessionStorage). */
class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

/** A storage that refuses everything, as some private modes do. */
const refusing = {
  getItem: (): string | null => {
    throw new Error('SecurityError');
  },
  setItem: (): void => {
    throw new Error('QuotaExceededError');
  },
  removeItem: (): void => {
    throw new Error('SecurityError');
  },
};

describe('the session token', () => {
  it('is saved, loaded and cleared under one key', () => {
    const storage = new MemoryStorage();
    expect(loadToken(storage)).toBeNull();
    saveToken(storage, 'lat_abc');
    expect([...storage.items.keys()]).toEqual(['licence-console.token']);
    expect(loadToken(storage)).toBe('lat_abc');
    clearToken(storage);
    expect(loadToken(storage)).toBeNull();
    expect(storage.items.size).toBe(0);
  });

  it('an empty stored value is no token', () => {
    const storage = new MemoryStorage();
    storage.setItem('licence-console.token', '');
    expect(loadToken(storage)).toBeNull();
  });

  it('a storage that throws is survived: no token, nothing thrown', () => {
    expect(loadToken(refusing)).toBeNull();
    expect(() => saveToken(refusing, 'x')).not.toThrow();
    expect(() => clearToken(refusing)).not.toThrow();
  });

  it('cleanToken drops the white space a paste brings', () => {
    expect(cleanToken('  lat_abc\n')).toBe('lat_abc');
  });
});
