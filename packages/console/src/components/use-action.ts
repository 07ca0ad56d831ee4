import { useRef, useState } from 'preact/hooks';
import { useApp } from './app-context.js';

/**
 * Runs a user's action (a form sent, a button pressed): the notices cleared first, so a repeated
 * error is announced again, `busy` while it runs, and its error shown as a sentence.
 */
export function useAction(): { readonly busy: boolean; readonly run: (action: () => Promise<void>) => Promise<void> } {
  const { fail, clearNotices } = useApp();
  const [busy, setBusy] = useState(false);
  // Buttons stay enabled (a disabled button drops the focus to the page); a second press while
  // the first runs is ignored here instead.
  const running = useRef(false);
  const run = async (action: () => Promise<void>) => {
    if (running.current) return;
    running.current = true;
    clearNotices();
    setBusy(true);
    try {
      await action();
    } catch (error) {
      fail(error);
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return { busy, run };
}
