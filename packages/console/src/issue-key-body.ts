import type { IssueKeyBody, KeyKind } from './api-types.js';

/** The issue form as typed: `sites` and `expire` are the fields' strings (`expire` a datetime-local value). */
export interface IssueForm {
  readonly produit: string;
  readonly kind: KeyKind;
  readonly sites: string;
  readonly expire: string;
}

export type IssueCheck =
  | { readonly ok: true; readonly body: IssueKeyBody }
  | { readonly ok: false; readonly field: 'sites' | 'expire' };

/**
 * A `datetime-local` value (the reader's wall time, no zone) as an RFC 3339 instant in UTC, the
 * form docs/protocol.md#key-lifecycle asks for `expire`; null when it is no date.
 */
export function localToIso(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The body of `POST admin/keys` from the form, checked only for what the form itself can get
 * wrong: the rules (a trial in the future, one live development key) stay the service's, whose
 * 400 and 409 the console shows.
 */
export function issueKeyBody(form: IssueForm): IssueCheck {
  const base = { produit: form.produit, kind: form.kind };
  if (form.kind === 'dev') return { ok: true, body: base };
  const sitesText = form.sites.trim();
  let sites: number | undefined;
  if (sitesText !== '') {
    sites = Number(sitesText);
    if (!/^\d+$/.test(sitesText) || sites < 1 || sites > 1000) return { ok: false, field: 'sites' };
  }
  const withSites = sites === undefined ? base : { ...base, sites };
  if (form.kind === 'buyer') return { ok: true, body: withSites };
  const expire = localToIso(form.expire);
  if (expire === null) return { ok: false, field: 'expire' };
  return { ok: true, body: { ...withSites, expire } };
}
