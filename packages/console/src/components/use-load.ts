import { type Inputs, useCallback, useEffect, useState } from 'preact/hooks';
import { useApp } from './app-context.js';

export interface Loaded<T> {
  /** The last answer; null before the first one, or after an error. */
  readonly data: T | null;
  /** The last load's error, for a page that shows something else on it (a 404); null once a load succeeds. */
  readonly error: unknown;
  readonly loading: boolean;
  readonly reload: () => void;
}

/**
 * Loads what a page shows, again when `inputs` change or on `reload()`; an error is shown as a
 * sentence. The last answer stays while the next one loads, so a reload does not blank the page.
 */
export function useLoad<T>(load: () => Promise<T>, inputs: Inputs): Loaded<T> {
  const { fail } = useApp();
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [round, setRound] = useState(0);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  useEffect(() => {
    let current = true;
    setLoading(true);
    load()
      .then((value) => {
        if (!current) return;
        setData(value);
        setError(null);
      })
      .catch((failure: unknown) => {
        if (!current) return;
        setData(null);
        setError(failure);
        fail(failure);
      })
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, [...inputs, round]);
  return { data, error, loading, reload };
}
