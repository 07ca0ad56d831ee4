import { describe, expect, it } from 'vitest';
import { escapeHtml, html } from './html.js';

// The buyer's pages build every document with these (docs/protocol.md#buyer-links).

describe('escapeHtml', () => {
  it('escapes the five characters that open a tag, an entity or leave a quoted attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
  });

  it('leaves other text as it is, non-ASCII included', () => {
    expect(escapeHtml('café.example — …ABCD')).toBe('café.example — …ABCD');
  });
});

describe('html', () => {
  it('escapes text and numbers, and inserts markup made by html as it is', () => {
    const inner = html`<em>${'<b>'}</em>`;
    expect(html`<p title="${'"x"'}">${inner} ${3}</p>`.text).toBe('<p title="&quot;x&quot;"><em>&lt;b&gt;</em> 3</p>');
  });

  it('joins a list of markup, and leaves nothing for null and false', () => {
    const items = ['a<', 'b&'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>${null}${false}`.text).toBe('<ul><li>a&lt;</li><li>b&amp;</li></ul>');
  });
});
