import { useId, useState } from 'preact/hooks';
import { ApiError } from '../api-error.js';
import type { ProductSummary } from '../api-types.js';
import { stagingList, stagingText } from '../staging-text.js';
import { useApp } from './app-context.js';
import { StagingField } from './staging-field.js';
import { useAction } from './use-action.js';

/**
 * A product's staging host patterns (docs/protocol.md#staging-hosts), edited as one list and saved
 * whole with `PATCH admin/products/:id {staging}`. The box then shows the list as the service
 * stored it (lower case, no trailing dot, no duplicate). A pattern it refuses is a 400 about this
 * one field: its detail (which names the pattern) is shown under the box as well as in the alert.
 */
export function StagingForm(props: { readonly product: ProductSummary; readonly onSaved: () => void }) {
  const { id } = props.product;
  const { t, api, succeed } = useApp();
  const { busy, run } = useAction();
  const headingId = useId();
  const [text, setText] = useState(() => stagingText(props.product.staging));
  const [error, setError] = useState<unknown>(null);
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      setError(null);
      try {
        const saved = await api.updateProduct(id, { staging: stagingList(text) });
        setText(stagingText(saved.staging));
        succeed(t('staging.saved', { id, count: saved.staging.length }));
        props.onSaved();
      } catch (failure) {
        if (failure instanceof ApiError && failure.status === 400) setError(failure);
        throw failure;
      }
    });
  };
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('staging.title')}</h2>
      <p>{t('staging.intro')}</p>
      <form class="panel" aria-busy={busy} onSubmit={submit}>
        <StagingField value={text} onValue={setText} error={error} />
        <div class="actions">
          <button type="submit">{t('staging.save')}</button>
        </div>
      </form>
    </section>
  );
}
