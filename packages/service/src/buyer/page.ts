import { type Html, html } from './html.js';
import { BUYER_TEXTS, type BuyerTexts, formatDate, formatDelay, formatWait } from './page-texts.js';
import type {
  BuyerDomainView,
  BuyerDoneView,
  BuyerEndView,
  BuyerKeyView,
  BuyerLanguage,
  BuyerPagePlace,
  BuyerView,
} from './page-views.js';
import type { Headers } from '../http/index.js';

export { BUYER_STYLESHEET } from './page-style.js';

/**
 * The buyer's pages (docs/protocol.md#buyer-links) as whole HTML documents: the key's page with a
 * form per bound domain to move or free it, the page that shows a transfer's new key once, and the
 * pages that replace them (a link invalid, expired or dead with its key, no transfer left, a form
 * from elsewhere, too many requests from one address). Plain forms, no script: a transfer works in any browser. Every value goes
 * through html.ts, which escapes it.
 */

/**
 * The headers of every buyer page and of its style sheet (with the console's, console-route.ts):
 * nothing loaded but the service's own style sheet, no script at all, forms posted only to the
 * service, never framed, never cached (the done page holds a key). `Referrer-Policy` is
 * `strict-origin`, not `no-referrer`: under `no-referrer` browsers send `Origin: null` with a form
 * POST (Fetch standard, "append a request `Origin` header"), which the transfer's Origin check
 * must refuse; `strict-origin` still never sends the path, which holds the token, in a `Referer`.
 */
export const BUYER_PAGE_HEADERS: Headers = {
  'Content-Security-Policy':
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex, nofollow',
};

/** The whole HTML document of `view`, in `lang`. */
export function renderBuyerPage(view: BuyerView, lang: BuyerLanguage): string {
  const texts = BUYER_TEXTS[lang];
  switch (view.kind) {
    case 'key':
      return page(lang, texts, texts.keyTitle(view.productName), view.place, keyPage(view, texts, lang));
    case 'done':
      return page(lang, texts, texts.doneTitle, 'transfer', donePage(view, texts));
    case 'end':
      return page(lang, texts, texts.endTitles[view.reason], view.place, endPage(view, texts));
  }
}

/**
 * The document around a page's main content. The style sheet's and the icon's links are relative,
 * so that a path prefix in front of the service is kept: `/buyer/<token>` links `buyer.css` and
 * `../favicon.ico`, and `/buyer/<token>/transfer` each one level up.
 */
function page(lang: BuyerLanguage, texts: BuyerTexts, title: string, place: BuyerPagePlace | undefined, main: Html) {
  const stylesheet = place === 'transfer' ? '../buyer.css' : 'buyer.css';
  // docs/protocol.md#favicon: the service's icon at its root, as relative as the style sheet.
  const icon = place === 'transfer' ? '../../favicon.ico' : '../favicon.ico';
  return html`<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${title} – ${texts.brand}</title>
<link rel="stylesheet" href="${stylesheet}">
<link rel="icon" href="${icon}" type="image/svg+xml">
</head>
<body>
<header><p>${texts.brand}</p></header>
<main>
<h1>${title}</h1>
${main}
</main>
</body>
</html>
`.text;
}

function keyPage(view: BuyerKeyView, texts: BuyerTexts, lang: BuyerLanguage): Html {
  return html`${problem(view, texts)}<section aria-labelledby="summary">
<h2 id="summary">${texts.summaryLabel}</h2>
${summary(view, texts, lang)}
</section>
${texts.explanation.map((line) => html`<p>${line}</p>\n`)}<section aria-labelledby="sites">
<h2 id="sites">${texts.sitesTitle}</h2>
${sites(view, texts, lang)}
</section>`;
}

/** The key at a glance: hint, status, allowance, transfers left and the link's own end. */
function summary(view: BuyerKeyView, texts: BuyerTexts, lang: BuyerLanguage): Html {
  const status = view.expiresAt === null ? texts.active : texts.trialUntil(formatDate(view.expiresAt, lang, true));
  const rows: [string, Html][] = [
    [texts.keyLabel, html`<code>…${view.hint}</code>`],
    [texts.statusLabel, html`${status}`],
    [texts.sitesLabel, html`${texts.sitesUsed(view.domains.length, view.sites)}`],
    [texts.transfersLabel, html`${texts.transfersLeft(Math.max(0, view.transfersLeft))}`],
    [texts.linkLabel, html`${texts.linkUntil(formatDate(view.linkExpires, lang, true))}`],
  ];
  return html`<dl>
${rows.map(([term, value]) => html`<dt>${term}</dt><dd>${value}</dd>\n`)}</dl>`;
}

/** A refused form's message, above the forms, announced as it appears (`role="alert"`). */
function problem(view: BuyerKeyView, texts: BuyerTexts): Html | null {
  if (view.problem === undefined) return null;
  return html`<div class="problem" role="alert" id="problem">
<p><strong>${texts.problemTitle}</strong></p>
<p>${texts.problems[view.problem.code]}</p>
<p>${texts.serviceSaid} <span lang="en">${view.problem.detail}</span></p>
</div>
`;
}

function sites(view: BuyerKeyView, texts: BuyerTexts, lang: BuyerLanguage): Html {
  if (view.domains.length === 0) return html`<p>${texts.noSites}</p>`;
  const forms = view.transfersLeft > 0;
  const notice = forms ? null : html`<p>${texts.noTransfersLeft} ${texts.contact(view.authorName)}</p>\n`;
  return html`${notice}${view.domains.map((domain, i) => site(view, domain, i + 1, forms, texts, lang))}`;
}

/** One bound domain: when it was first and last seen, and its two forms while transfers are left. */
function site(
  view: BuyerKeyView,
  domain: BuyerDomainView,
  n: number,
  forms: boolean,
  texts: BuyerTexts,
  lang: BuyerLanguage,
): Html {
  const seen = (seconds: number) =>
    html`<time datetime="${new Date(seconds * 1000).toISOString()}">${formatDate(seconds, lang)}</time>`;
  return html`<section class="site" aria-labelledby="site-${n}">
<h3 id="site-${n}">${domain.domain}</h3>
<dl>
<dt>${texts.firstSeen}</dt><dd>${seen(domain.firstSeen)}</dd>
<dt>${texts.lastSeen}</dt><dd>${seen(domain.lastSeen)}</dd>
</dl>
${forms && moveForm(view, domain.domain, n, texts)}${forms && freeForm(view, domain.domain, n, texts)}</section>
`;
}

/**
 * Moves `from` to a new domain. After a refused move of this very domain, its `to` field is marked
 * invalid, points at the message, and holds what the buyer typed.
 */
function moveForm(view: BuyerKeyView, from: string, n: number, texts: BuyerTexts): Html {
  const refused = view.problem !== undefined && view.problem.from === from && view.problem.code !== 'not-bound';
  const typed = refused ? (view.problem?.to ?? '') : '';
  const describedBy = refused ? `to-${n}-hint problem` : `to-${n}-hint`;
  return html`<form method="post" action="${view.action}">
<h4>${texts.moveTitle}</h4>
<input type="hidden" name="from" value="${from}">
<label for="to-${n}">${texts.newDomain}<span class="visually-hidden">${texts.forDomain(from)}</span></label>
<p class="hint" id="to-${n}-hint">${texts.newDomainHint}</p>
<p><input id="to-${n}" name="to" type="text" value="${typed}" required autocomplete="off" autocapitalize="none" spellcheck="false" inputmode="url" aria-describedby="${describedBy}"${refused ? html` aria-invalid="true"` : null}></p>
<button type="submit">${texts.moveButton}<span class="visually-hidden">${texts.forDomain(from)}</span></button>
</form>
`;
}

function freeForm(view: BuyerKeyView, from: string, n: number, texts: BuyerTexts): Html {
  return html`<form method="post" action="${view.action}">
<h4>${texts.freeTitle}</h4>
<input type="hidden" name="from" value="${from}">
<p class="hint" id="free-${n}-hint">${texts.freeHint(from)}</p>
<button type="submit" class="secondary" aria-describedby="free-${n}-hint">${texts.freeButton}<span class="visually-hidden">${texts.forDomain(from)}</span></button>
</form>
`;
}

/** The new key, shown this once, and what to do with it. */
function donePage(view: BuyerDoneView, texts: BuyerTexts): Html {
  const within = formatDelay(view.oldSiteStopsWithin, texts);
  const steps = texts.nextSteps(view.productName, view.to, view.from, within);
  return html`<p>${texts.doneIntro(view.productName)}</p>
<section aria-labelledby="new-key-title">
<h2 id="new-key-title">${texts.newKeyLabel}</h2>
<p class="new-key" id="new-key">${view.cle}</p>
<p class="warning">${texts.shownOnce}</p>
</section>
<section aria-labelledby="next">
<h2 id="next">${texts.nextTitle}</h2>
<ol>
${steps.map((step) => html`<li>${step}</li>\n`)}</ol>
<p>${texts.linkEnded}</p>
</section>`;
}

/** Why the key's page is not shown, and who to ask; or, after too many requests, when to come back. */
function endPage(view: BuyerEndView, texts: BuyerTexts): Html {
  const next =
    view.retryAfter === undefined ? texts.contact(view.authorName) : texts.retryIn(formatWait(view.retryAfter, texts));
  return html`<p>${texts.endSentences[view.reason]}</p>
<p>${next}</p>`;
}
