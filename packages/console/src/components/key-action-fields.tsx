import type { TransferBody } from '../api-types.js';
import { useApp } from './app-context.js';
import { Field } from './field.js';

export type KeyAction = 'regenerate' | 'transfer' | 'revoke';

export interface KeyActionFields {
  readonly from: string;
  readonly to: string;
  readonly reason: string;
}

export const NO_FIELDS: KeyActionFields = { from: '', to: '', reason: '' };

/** A transfer's body: each optional field sent only when filled in. */
export function transferBody(fields: KeyActionFields): TransferBody {
  const from = fields.from.trim();
  const to = fields.to.trim();
  return { ...(from === '' ? {} : { from }), ...(to === '' ? {} : { to }) };
}

/** What the confirmation of an action asks: the domains of a transfer, the reason of a revocation. */
export function KeyActionInputs(props: {
  readonly action: KeyAction;
  readonly fields: KeyActionFields;
  readonly onFields: (fields: KeyActionFields) => void;
}) {
  const { t } = useApp();
  const { fields, onFields } = props;
  if (props.action === 'transfer') {
    return (
      <>
        <Field
          label={t('confirm.transfer.from')}
          hint={t('confirm.transfer.fromHint')}
          value={fields.from}
          onValue={(from) => onFields({ ...fields, from })}
          verbatim
        />
        <Field
          label={t('confirm.transfer.to')}
          hint={t('confirm.transfer.toHint')}
          value={fields.to}
          onValue={(to) => onFields({ ...fields, to })}
          verbatim
        />
      </>
    );
  }
  if (props.action === 'revoke') {
    return (
      <Field
        label={t('confirm.revoke.reason')}
        value={fields.reason}
        onValue={(reason) => onFields({ ...fields, reason })}
      />
    );
  }
  return null;
}
