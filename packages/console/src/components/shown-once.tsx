import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';
import { copyText } from '../clipboard.js';
import { useApp } from './app-context.js';

/**
 * A new key or token, shown this once (docs/protocol.md#key-lifecycle: it is stored hashed and
 * cannot be shown again), or a webhook's signing secret (docs/protocol.md#webhooks: the service
 * keeps it to sign, and never shows it again): a read-only field, a Copy button, and the warning. It takes the focus
 * when it appears, its text selected. It lives in component state only and goes with "Done",
 * which also takes away the notice that said to copy it, and gives the focus to the page's title:
 * the button pressed disappears, and the focus must not fall back to the document's start.
 */
export function ShownOnce(props: {
  readonly label: string;
  readonly value: string;
  readonly onDone: () => void;
  /** What to know about it, under the field (a webhook secret: until when the previous one signs, how to verify). */
  readonly children?: ComponentChildren;
  /** The field's lines: 2 hold a key, a token or a secret; a buyer link's URL needs more. */
  readonly rows?: number;
}) {
  const { t, succeed, clearNotices } = useApp();
  const id = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, []);
  const copy = async () => {
    const how = await copyText(props.value, field.current);
    succeed(how === 'copied' ? t('once.copied') : t('once.selected'));
  };
  const done = () => {
    clearNotices();
    document.querySelector<HTMLElement>('main h1')?.focus();
    props.onDone();
  };
  return (
    <div class="once">
      <label for={id} class="once-label">
        {props.label}
      </label>
      <p class="once-warning" id={`${id}-warning`}>
        {t('once.warning')}
      </p>
      <textarea
        id={id}
        ref={field}
        class="secret"
        readOnly
        rows={props.rows ?? 2}
        spellcheck={false}
        aria-describedby={`${id}-warning`}
        value={props.value}
      />
      {props.children}
      <div class="actions">
        <button type="button" onClick={copy}>
          {t('once.copy')}
        </button>
        <button type="button" class="secondary" onClick={done}>
          {t('once.done')}
        </button>
      </div>
    </div>
  );
}
