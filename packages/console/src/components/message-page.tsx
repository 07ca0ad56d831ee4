import { useI18n } from './i18n-context.js';
import { PageTitle } from './page-title.js';

/** A page that only says something: not found, not allowed. */
export function MessagePage(props: { readonly title: string; readonly text: string }) {
  const { t } = useI18n();
  return (
    <>
      <PageTitle text={props.title} />
      <p>{props.text}</p>
      <p>
        <a href="#/products">{t('missing.back')}</a>
      </p>
    </>
  );
}
