import { useId, useState } from 'preact/hooks';
import { productBody } from '../product-body.js';
import { useApp } from './app-context.js';
import { Field } from './field.js';
import { StagingField } from './staging-field.js';
import { useAction } from './use-action.js';

/**
 * Create a product. The operator names its author; an author's token creates its own product, so
 * the field is not offered (docs/protocol.md#authors). Its staging hosts are optional
 * (docs/protocol.md#staging-hosts); a refused one comes back as the 400 in the alert region, whose
 * detail names the field, as for the other fields of the form (the problem does not say which
 * field in a way to match on, docs/protocol.md#errors).
 */
export function ProductForm({ onCreated }: { readonly onCreated: () => void }) {
  const { t, api, me, succeed } = useApp();
  const { busy, run } = useAction();
  const headingId = useId();
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [author, setAuthor] = useState('');
  const [staging, setStaging] = useState('');
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const created = await api.addProduct(productBody({ id, name, author, staging }, me.role));
      succeed(t('products.created', { id: created.id }));
      setId('');
      setName('');
      setAuthor('');
      setStaging('');
      onCreated();
    });
  };
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('products.create')}</h2>
      <form class="panel" aria-busy={busy} onSubmit={submit}>
        <Field label={t('products.id')} hint={t('products.idHint')} value={id} onValue={setId} required verbatim />
        <Field label={t('products.name')} value={name} onValue={setName} required />
        {me.role === 'operator' ? (
          <Field
            label={t('products.author')}
            hint={t('products.authorHint')}
            value={author}
            onValue={setAuthor}
            required
            verbatim
          />
        ) : null}
        <StagingField value={staging} onValue={setStaging} />
        <div class="actions">
          <button type="submit">{t('products.createButton')}</button>
        </div>
      </form>
    </section>
  );
}
