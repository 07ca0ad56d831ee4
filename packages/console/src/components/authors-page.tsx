import { useId, useState } from 'preact/hooks';
import type { AuthorView } from '../api-types.js';
import { formatInstant } from '../dates.js';
import { routeHref } from '../routes.js';
import { useApp } from './app-context.js';
import { Field } from './field.js';
import { PageTitle } from './page-title.js';
import { TableWrap } from './table-wrap.js';
import { useAction } from './use-action.js';
import { useLoad } from './use-load.js';

function AuthorsTable({ authors }: { readonly authors: readonly AuthorView[] | null }) {
  const { t, lang } = useApp();
  const captionId = useId();
  return (
    <TableWrap captionId={captionId}>
      <table aria-busy={authors === null}>
        <caption id={captionId}>{t('authors.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('authors.id')}</th>
            <th scope="col">{t('authors.name')}</th>
            <th scope="col">{t('authors.created')}</th>
          </tr>
        </thead>
        <tbody>
          {authors?.length === 0 ? (
            <tr>
              <td colSpan={3}>{t('authors.none')}</td>
            </tr>
          ) : null}
          {(authors ?? []).map((author) => (
            <tr key={author.id}>
              <th scope="row">
                <a
                  href={routeHref({ page: 'author', id: author.id })}
                  aria-label={t('authors.tokensOf', { id: author.id })}
                >
                  {author.id}
                </a>
              </th>
              <td>{author.name}</td>
              <td>{formatInstant(author.created, lang)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

function AuthorForm({ onCreated }: { readonly onCreated: () => void }) {
  const { t, api, succeed } = useApp();
  const { busy, run } = useAction();
  const headingId = useId();
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const author = await api.addAuthor({ id, name });
      succeed(t('authors.added', { id: author.id }));
      setId('');
      setName('');
      onCreated();
    });
  };
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('authors.add')}</h2>
      <form class="panel" aria-busy={busy} onSubmit={submit}>
        <Field label={t('authors.id')} hint={t('authors.idHint')} value={id} onValue={setId} required verbatim />
        <Field label={t('authors.name')} value={name} onValue={setName} required />
        <div class="actions">
          <button type="submit">{t('authors.addButton')}</button>
        </div>
      </form>
    </section>
  );
}

/** The operator's authors (docs/protocol.md#authors): the list, each opening its tokens, and the form to add one. */
export function AuthorsPage() {
  const { t, api } = useApp();
  const list = useLoad(() => api.listAuthors(), [api]);
  return (
    <>
      <PageTitle text={t('authors.title')} />
      <AuthorsTable authors={list.data?.authors ?? null} />
      <AuthorForm onCreated={list.reload} />
    </>
  );
}
