import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';
import { useApp } from './app-context.js';

export interface ConfirmDialogProps {
  readonly open: boolean;
  readonly title: string;
  readonly text: string;
  readonly confirmLabel: string;
  /** Runs after the dialog closed and the focus went back: its outcome is announced in the page. */
  readonly onConfirm: () => void;
  readonly onClose: () => void;
  /** Fields the confirmation takes (a reason, the domains of a transfer). */
  readonly children?: ComponentChildren;
}

/**
 * A modal confirmation (`<dialog>` with showModal: the page behind is inert, Escape cancels). The
 * browser moves the focus into it (its first field, else Cancel, so Enter alone never destroys);
 * closing gives it back to the button that opened it. The action starts only once the dialog is
 * closed, so what it shows next (a key shown once) can take the focus.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { t } = useApp();
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const confirmed = useRef(false);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (props.open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      confirmed.current = false;
      dialog.showModal();
    } else if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  const closed = () => {
    if (opener.current?.isConnected) opener.current.focus();
    props.onClose();
    if (confirmed.current) props.onConfirm();
    confirmed.current = false;
  };
  const submit = (event: Event) => {
    event.preventDefault();
    confirmed.current = true;
    ref.current?.close();
  };
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={closed}>
      <form onSubmit={submit}>
        <h2 id={titleId}>{props.title}</h2>
        <p>{props.text}</p>
        {props.children}
        <div class="actions">
          <button type="button" class="secondary" onClick={() => ref.current?.close()}>
            {t('dialog.cancel')}
          </button>
          <button type="submit" class="danger">
            {props.confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
