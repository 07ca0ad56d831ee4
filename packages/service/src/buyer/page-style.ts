/**
 * The buyer pages' only style sheet, served at `/buyer/buyer.css` (docs/protocol.md#buyer-links):
 * the CSP allows styles from the service itself and nothing inline. One column that fits a 360 px
 * phone; the console's light palette, every text colour at least 4.5:1 on its background (WCAG 2.2
 * AA), field borders 3:1, and a focus ring that always shows.
 */
export const BUYER_STYLESHEET = `:root {
  --fg: #1f2328;
  --bg: #ffffff;
  --muted: #57606a;
  --line: #d0d7de;
  --field-line: #6e7781;
  --accent: #0b57d0;
  --accent-dark: #0842a0;
  --danger: #b3261e;
  --danger-soft: #fcebea;
  --soft: #f6f8fa;
  color-scheme: light;
}

*,
*::before,
*::after {
  box-sizing: border-box;
}

html {
  -webkit-text-size-adjust: 100%;
  text-size-adjust: 100%;
}

body {
  margin: 0;
  background: var(--bg);
  color: var(--fg);
  font: 1rem / 1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Liberation Sans", Arial, sans-serif;
  overflow-wrap: anywhere;
}

.visually-hidden {
  position: absolute;
  width: 1px;
  height: 1px;
  margin: -1px;
  padding: 0;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
  border: 0;
}

:focus-visible {
  outline: 3px solid var(--accent);
  outline-offset: 2px;
}

header {
  background: var(--soft);
  border-bottom: 1px solid var(--line);
}

header p,
main {
  max-width: 42rem;
  margin: 0 auto;
  padding: 0.75rem 1rem;
}

header p {
  font-weight: 700;
}

main {
  padding-bottom: 3rem;
}

h1 {
  font-size: 1.5rem;
  line-height: 1.25;
  margin: 1rem 0;
}

h2 {
  font-size: 1.25rem;
  margin: 2rem 0 0.75rem;
}

h3 {
  font-size: 1.125rem;
  margin: 0 0 0.5rem;
}

h4 {
  font-size: 1rem;
  margin: 1rem 0 0.25rem;
}

dl {
  display: grid;
  grid-template-columns: minmax(6rem, max-content) 1fr;
  gap: 0.25rem 1rem;
  margin: 0 0 1rem;
}

dt {
  color: var(--muted);
}

dd {
  margin: 0;
}

.hint {
  color: var(--muted);
  margin: 0.25rem 0 0.5rem;
}

.site {
  border: 1px solid var(--line);
  border-radius: 0.5rem;
  padding: 1rem;
  margin: 0 0 1rem;
}

.site > :last-child {
  margin-bottom: 0;
}

label {
  display: block;
  font-weight: 600;
}

input {
  width: 100%;
  max-width: 24rem;
  font: inherit;
  padding: 0.5rem;
  border: 1px solid var(--field-line);
  border-radius: 0.25rem;
}

input[aria-invalid="true"] {
  border: 2px solid var(--danger);
}

button {
  font: inherit;
  min-height: 2.75rem;
  padding: 0.5rem 1rem;
  border-radius: 0.25rem;
  border: 1px solid var(--accent);
  background: var(--accent);
  color: #ffffff;
  cursor: pointer;
}

button:hover {
  background: var(--accent-dark);
}

button.secondary {
  background: var(--bg);
  color: var(--accent);
}

button.secondary:hover {
  background: var(--soft);
  color: var(--accent-dark);
}

.problem {
  border-left: 4px solid var(--danger);
  background: var(--danger-soft);
  padding: 0.75rem 1rem;
  margin: 1rem 0;
}

.problem p {
  margin: 0.25rem 0;
}

.new-key {
  font: 700 1.375rem / 1.4 ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, monospace;
  letter-spacing: 0.05em;
  background: var(--soft);
  border: 2px solid var(--accent);
  border-radius: 0.5rem;
  padding: 1rem;
  margin: 0.5rem 0 1rem;
  user-select: all;
  -webkit-user-select: all;
  overflow-wrap: anywhere;
}

.warning {
  font-weight: 700;
}

@media (min-width: 40rem) {
  h1 {
    font-size: 1.75rem;
  }
}
`;
