import { useId } from 'preact/hooks';
import { useApp } from './app-context.js';
import { FieldError } from './field-error.js';

/**
 * The staging host patterns of a product (docs/protocol.md#staging-hosts), one a line, in a text
 * box with its label and hint. `error`: the service's refusal of this field, shown under it and
 * tied to it (aria-invalid, aria-describedby), so a screen reader reads it with the field.
 */
export function StagingField(props: {
  readonly value: string;
  readonly onValue: (value: string) => void;
  readonly error?: unknown;
}) {
  const { t } = useApp();
  const id = useId();
  const invalid = props.error !== undefined && props.error !== null;
  return (
    <div class="field">
      <label for={id}>{t('staging.field')}</label>
      <p id={`${id}-hint`} class="hint">
        {t('staging.hint')}
      </p>
      <textarea
        id={id}
        class="patterns"
        rows={4}
        value={props.value}
        onInput={(event) => props.onValue(event.currentTarget.value)}
        aria-describedby={invalid ? `${id}-hint ${id}-error` : `${id}-hint`}
        aria-invalid={invalid ? true : undefined}
        // Host names: no spell check (which may send the text away), no capitals, no autofill.
        spellcheck={false}
        autoCapitalize="off"
        autoComplete="off"
      />
      {invalid ? <FieldError id={`${id}-error`} error={props.error} /> : null}
    </div>
  );
}
