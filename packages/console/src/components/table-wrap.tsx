import type { ComponentChildren } from 'preact';

/**
 * A table that may be wider than a phone scrolls inside this box, never the page. The box is a
 * region (a `section` named by the table's caption, aria-labelledby, so the name is the caption's
 * very text), and takes the focus so a keyboard can scroll it (axe: scrollable-region-focusable).
 * The style sheet draws a shadow on each side with more to scroll to (console.css, no script).
 */
export function TableWrap(props: {
  readonly captionId: string;
  readonly children: ComponentChildren;
  /** A long table: it scrolls down in its box too, its header row kept in view. */
  readonly tall?: boolean;
}) {
  return (
    <section
      class={props.tall === true ? 'table-wrap tall' : 'table-wrap'}
      aria-labelledby={props.captionId}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must take the focus for a keyboard to scroll it.
      tabIndex={0}
    >
      {props.children}
    </section>
  );
}
