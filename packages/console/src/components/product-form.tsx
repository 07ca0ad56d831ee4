import { useId, useState } from 'preact/hooks';
import type { ProductInput } from '../api-types.js';
import { useApp } from './app-context.js';
import { Field } from './field.js';
import { useAction } from './use-action.js';

/**
 * Create a product. The operator names its author; an author's token creates its own product, so
 * the field is not offered (docs/protocol.md#authors).
 */
export function ProductForm({ onCreated }: { readonly onCreated: () => void }) {
  const { t, api, me, succeed } = useApp();
  const { busy, run } = useAction();
  const headingId = useId();
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [author, setAuthor] = useState('');
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const input: ProductInput = me.role === 'operator' ? { id, name, author } : { id, name };
      const created = await api.addProduct(input);
      succeed(t('products.created', { id: created.id }));
      setId('');
      setName('');
      setAuthor('');
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
        <div class="actions">
          <button type="submit">{t('products.createButton')}</button>
        </div>
      </form>
    </section>
  );
}
