import { useId, useState } from 'preact/hooks';
import type { IssuedKey, KeyKind } from '../api-types.js';
import { formatInstant } from '../dates.js';
import { FormError } from '../form-error.js';
import { issueKeyBody } from '../issue-key-body.js';
import { useApp } from './app-context.js';
import { Field } from './field.js';
import { ShownOnce } from './shown-once.js';
import { useAction } from './use-action.js';

const KINDS: readonly KeyKind[] = ['buyer', 'trial', 'dev'];

function KindSelect(props: { readonly value: KeyKind; readonly onValue: (kind: KeyKind) => void }) {
  const { t } = useApp();
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{t('issue.kind')}</label>
      <select id={id} value={props.value} onChange={(e) => props.onValue(e.currentTarget.value as KeyKind)}>
        {KINDS.map((kind) => (
          <option key={kind} value={kind}>
            {t(`kind.${kind}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The key just issued, shown once, and what it is. */
function Issued({ issued, onDone }: { readonly issued: IssuedKey; readonly onDone: () => void }) {
  const { t, lang } = useApp();
  return (
    <div class="result">
      <ShownOnce label={t('once.key')} value={issued.cle} onDone={onDone} />
      <p>
        {t('issue.summary', { kind: t(`kind.${issued.kind}`), sites: issued.sites })}
        {issued.expire === null ? '' : ` ${t('issue.until', { date: formatInstant(issued.expire, lang) })}`}
      </p>
    </div>
  );
}

/**
 * Issue a key of this product (docs/protocol.md#key-lifecycle); the new key is shown once.
 * `onIssued` tells the page, whose installations and activity now differ.
 */
export function IssueKeyForm(props: { readonly produit: string; readonly onIssued: (key: IssuedKey) => void }) {
  const { produit } = props;
  const { t, api, succeed } = useApp();
  const { busy, run } = useAction();
  const headingId = useId();
  const [kind, setKind] = useState<KeyKind>('buyer');
  const [sites, setSites] = useState('');
  const [expire, setExpire] = useState('');
  const [issued, setIssued] = useState<IssuedKey | null>(null);
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      setIssued(null);
      const check = issueKeyBody({ produit, kind, sites, expire });
      if (!check.ok) throw new FormError(check.field === 'sites' ? t('issue.sitesInvalid') : t('issue.expireInvalid'));
      const key = await api.issueKey(check.body);
      setIssued(key);
      succeed(t('issue.done', { hint: key.hint }));
      props.onIssued(key);
    });
  };
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('issue.title')}</h2>
      <form class="panel" aria-busy={busy} onSubmit={submit}>
        <KindSelect value={kind} onValue={setKind} />
        {kind === 'dev' ? null : (
          <Field
            label={t('issue.sites')}
            hint={t('issue.sitesHint')}
            type="number"
            min={1}
            max={1000}
            value={sites}
            onValue={setSites}
          />
        )}
        {kind === 'trial' ? (
          <Field
            label={t('issue.expire')}
            hint={t('issue.expireHint')}
            type="datetime-local"
            value={expire}
            onValue={setExpire}
            required
          />
        ) : null}
        <div class="actions">
          <button type="submit">{t('issue.button')}</button>
        </div>
      </form>
      {issued === null ? null : <Issued issued={issued} onDone={() => setIssued(null)} />}
    </section>
  );
}
