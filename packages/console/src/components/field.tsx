import { useId } from 'preact/hooks';

export interface FieldProps {
  readonly label: string;
  readonly value: string;
  readonly onValue: (value: string) => void;
  readonly type?: 'text' | 'password' | 'number' | 'datetime-local' | undefined;
  /** A sentence under the label, tied to the field with aria-describedby. */
  readonly hint?: string | undefined;
  readonly required?: boolean | undefined;
  /** A key, a token, an id: no spell check (which may send the text away), no capitals. */
  readonly verbatim?: boolean | undefined;
  readonly min?: number | undefined;
  readonly max?: number | undefined;
  readonly maxLength?: number | undefined;
}

function inputAttributes(props: FieldProps, id: string, hintId: string) {
  const verbatim = props.verbatim === true;
  return {
    id,
    value: props.value,
    onInput: (event: Event) => props.onValue((event.currentTarget as HTMLInputElement).value),
    'aria-describedby': props.hint === undefined ? undefined : hintId,
    required: props.required,
    min: props.min,
    max: props.max,
    maxLength: props.maxLength,
    // No autofill: these fields hold secrets and ids, never a saved password or an address.
    autoComplete: 'off',
    spellcheck: verbatim ? false : undefined,
    autoCapitalize: verbatim ? ('off' as const) : undefined,
  };
}

/** One literal `type` per element: Preact's types tie each type to the attributes it allows. */
function input(type: NonNullable<FieldProps['type']>, attributes: ReturnType<typeof inputAttributes>) {
  switch (type) {
    case 'password':
      return <input type="password" {...attributes} />;
    case 'number':
      return <input type="number" {...attributes} />;
    case 'datetime-local':
      return <input type="datetime-local" {...attributes} />;
    default:
      return <input type="text" {...attributes} />;
  }
}

/** A labelled input: every field of the console has a visible label (WCAG 2.2 SC 3.3.2). */
export function Field(props: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const attributes = inputAttributes(props, id, hintId);
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      {props.hint === undefined ? null : (
        <p id={hintId} class="hint">
          {props.hint}
        </p>
      )}
      {input(props.type ?? 'text', attributes)}
    </div>
  );
}
