import { problemMessage } from '../problem-sentence.js';
import { useApp } from './app-context.js';
import { ProblemNotice } from './notices.js';

/**
 * A refusal shown next to the field it is about, as the alert region says it (the same sentence,
 * the service's English detail marked `lang="en"`), in the page's language of the moment: the
 * error is kept, not its sentence, so switching FR/EN translates it too.
 */
export function FieldError(props: { readonly id: string; readonly error: unknown }) {
  const { t, lang } = useApp();
  return (
    <p id={props.id} class="field-error">
      <ProblemNotice message={problemMessage(props.error, t, lang)} />
    </p>
  );
}
