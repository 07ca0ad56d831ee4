import type { ComponentChildren, VNode } from 'preact';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api-error.js';
import { translator } from '../i18n/translate.js';
import { problemMessage, problemText } from '../problem-sentence.js';
import { Notices } from './notices.js';

/**
 * The notices are hook-free components, so their tree is expanded here by calling them, as Preact
 * would: no DOM needed to read what the regions hold.
 */
type Node = VNode<Record<string, unknown>>;

function expand(node: ComponentChildren): ComponentChildren {
  if (Array.isArray(node)) return node.map(expand);
  if (typeof node !== 'object' || node === null) return node;
  const vnode = node as Node;
  if (typeof vnode.type === 'function') {
    return expand((vnode.type as (props: unknown) => ComponentChildren)(vnode.props));
  }
  return { ...vnode, props: { ...vnode.props, children: expand(vnode.props.children as ComponentChildren) } } as Node;
}

function textOf(node: ComponentChildren): string {
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (typeof node !== 'object' || node === null) return '';
  return textOf((node as Node).props.children as ComponentChildren);
}

function elements(node: ComponentChildren): Node[] {
  if (Array.isArray(node)) return node.flatMap(elements);
  if (typeof node !== 'object' || node === null) return [];
  const vnode = node as Node;
  return [vnode, ...elements(vnode.props.children as ComponentChildren)];
}

const problem = (status: number, detail: string) =>
  new ApiError(status, { type: 'https://licence.dev/problems/x', title: 'T', status, detail });

function regions(error: ReturnType<typeof problemMessage> | null, success: string | null) {
  const tree = expand(<Notices error={error} success={success} />);
  const alert = elements(tree).find((node) => node.props.role === 'alert');
  const status = elements(tree).find((node) => node.props.role === 'status');
  if (alert === undefined || status === undefined) throw new Error('a live region is missing');
  return { alert, status };
}

describe('Notices', () => {
  it('French: the English detail is marked lang="en", after a French lead-in', () => {
    const message = problemMessage(problem(409, 'key …AB12 is revoked'), translator('fr'), 'fr');
    const { alert } = regions(message, null);
    expect(textOf(alert)).toBe(problemText(message));
    expect(textOf(alert)).toBe(
      'Cette action est en conflit avec l’état actuel. Détail (en anglais)\u00a0: key …AB12 is revoked',
    );
    const marked = elements(alert).filter((node) => node.props.lang !== undefined);
    expect(marked.map((node) => [node.type, node.props.lang, textOf(node)])).toEqual([
      ['span', 'en', 'key …AB12 is revoked'],
    ]);
  });

  it('English reads as before: the sentence, then "Detail:" and the detail', () => {
    const message = problemMessage(problem(404, 'no product bob-theme'), translator('en'), 'en');
    expect(textOf(regions(message, null).alert)).toBe('Not found. Detail: no product bob-theme');
  });

  it('a sentence without detail has no lang mark; idle regions stay empty but present', () => {
    const message = problemMessage(problem(404, 'no author atelier'), translator('fr'), 'fr');
    const { alert } = regions(message, null);
    expect(textOf(alert)).toBe('Introuvable.');
    expect(elements(alert).some((node) => node.props.lang !== undefined)).toBe(false);
    const idle = regions(null, 'Produit x créé.');
    expect(textOf(idle.alert)).toBe('');
    expect(textOf(idle.status)).toBe('Produit x créé.');
    expect(idle.status.props['aria-live']).toBe('polite');
  });
});
