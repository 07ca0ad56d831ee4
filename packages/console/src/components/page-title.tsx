import { useEffect, useRef } from 'preact/hooks';
import { useI18n } from './i18n-context.js';

/**
 * The page's one h1. It names the tab too, and takes the focus when the page opens, so a screen
 * reader announces the new page after a hash navigation (the browser does not).
 */
export function PageTitle({ text }: { readonly text: string }) {
  const { t } = useI18n();
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${text} · ${t('app.name')}`;
  }, [text, t]);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {text}
    </h1>
  );
}
