import type { ProblemMessage } from '../problem-sentence.js';

/**
 * An error's sentence, then the server's detail after its lead-in. The detail is English whatever
 * the page's language (docs/protocol.md#errors), so it is marked `lang="en"` for a screen reader.
 */
export function ProblemNotice({ message }: { readonly message: ProblemMessage }) {
  const { sentence, detail } = message;
  if (detail === null) return <>{sentence}</>;
  return (
    <>
      {sentence} {detail.lead} <span lang="en">{detail.text}</span>
    </>
  );
}

/**
 * The two live regions, always in the page so additions are announced: errors in role=alert,
 * successes in a polite status region.
 */
export function Notices(props: { readonly error: ProblemMessage | null; readonly success: string | null }) {
  return (
    <div class="notices">
      <div role="alert" class="notice notice-error">
        {props.error === null ? null : <ProblemNotice message={props.error} />}
      </div>
      <div role="status" aria-live="polite" class="notice notice-success">
        {props.success}
      </div>
    </div>
  );
}
