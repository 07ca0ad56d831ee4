import { useApp } from './app-context.js';
import { ShownOnce } from './shown-once.js';

/**
 * A webhook endpoint's signing secret, shown once (docs/protocol.md#webhooks: stored for signing,
 * never shown again), with what to do with it: verify each delivery with a Standard Webhooks
 * library. `note`: a sentence before that (until when the previous secret signs, after a rotation).
 */
export function WebhookSecret(props: {
  readonly label: string;
  readonly secret: string;
  readonly note?: string | undefined;
  readonly onDone: () => void;
}) {
  const { t } = useApp();
  return (
    <ShownOnce label={props.label} value={props.secret} onDone={props.onDone}>
      {props.note === undefined ? null : <p class="once-note">{props.note}</p>}
      <p class="once-note hint">{t('webhooks.verifyHint')}</p>
    </ShownOnce>
  );
}
