import { useId, useRef, useState } from 'preact/hooks';
import type { KeyView } from '../api-types.js';
import { formatInstant } from '../dates.js';
import { useApp } from './app-context.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { type KeyAction, KeyActionInputs, type KeyActionFields, NO_FIELDS, transferBody } from './key-action-fields.js';
import { ShownOnce } from './shown-once.js';
import { useAction } from './use-action.js';

const ACTIONS: readonly KeyAction[] = ['regenerate', 'transfer', 'revoke'];

interface KeyActionsProps {
  readonly cle: string;
  readonly view: KeyView;
  readonly onChanged: () => Promise<void>;
}

/**
 * Runs a confirmed action. A revocation announces itself and moves the focus to the section's
 * heading (its button goes: the key is dead); a new key is shown once, and takes the focus.
 */
function usePerform(props: KeyActionsProps, heading: { readonly current: HTMLHeadingElement | null }) {
  const { t, lang, api, succeed } = useApp();
  const { run } = useAction();
  const [newKey, setNewKey] = useState<string | null>(null);
  const perform = (action: KeyAction, fields: KeyActionFields) =>
    run(async () => {
      if (action === 'revoke') {
        const revoked = await api.revokeKey(props.cle, fields.reason.trim() || undefined);
        heading.current?.focus();
        succeed(t('actions.revoked', { hint: revoked.hint, date: formatInstant(revoked.quand, lang) }));
      } else {
        const replaced =
          action === 'regenerate'
            ? await api.regenerateKey(props.cle)
            : await api.transferKey(props.cle, transferBody(fields));
        setNewKey(replaced.cle);
        succeed(t(action === 'regenerate' ? 'actions.regenerated' : 'actions.transferred'));
      }
      await props.onChanged();
    });
  return { newKey, setNewKey, perform };
}

/**
 * Regenerate, transfer or revoke a live key (docs/protocol.md#key-lifecycle), each confirmed in a
 * modal dialog; the new key of a regeneration or a transfer is shown once.
 */
export function KeyActions(props: KeyActionsProps) {
  const { t } = useApp();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<KeyAction>('regenerate');
  const [fields, setFields] = useState(NO_FIELDS);
  const { newKey, setNewKey, perform } = usePerform(props, heading);
  const start = (action: KeyAction) => {
    setFields(NO_FIELDS);
    setNewKey(null);
    setChosen(action);
    setOpen(true);
  };
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} ref={heading} tabIndex={-1}>
        {t('actions.title')}
      </h2>
      {props.view.status === 'active' ? (
        <div class="actions">
          {ACTIONS.map((action) => (
            <button
              key={action}
              type="button"
              class={action === 'revoke' ? 'danger' : ''}
              onClick={() => start(action)}
            >
              {t(`actions.${action}`)}
            </button>
          ))}
        </div>
      ) : (
        <p>{t('actions.notAlive')}</p>
      )}
      {newKey === null ? null : <ShownOnce label={t('once.key')} value={newKey} onDone={() => setNewKey(null)} />}
      <ConfirmDialog
        open={open}
        title={t(`confirm.${chosen}.title`)}
        text={t(`confirm.${chosen}.text`)}
        confirmLabel={t(`confirm.${chosen}.button`)}
        onConfirm={() => void perform(chosen, fields)}
        onClose={() => setOpen(false)}
      >
        <KeyActionInputs action={chosen} fields={fields} onFields={setFields} />
      </ConfirmDialog>
    </section>
  );
}
