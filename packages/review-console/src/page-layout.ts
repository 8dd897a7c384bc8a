import type { FormTarget } from './form-actions.js';
import { html, type SafeHtml } from './html-template.js';
import type { Reviewer } from './reviewer.js';

/** What every page knows: where the console is mounted, who reviews, and whether it may write. */
export type PageContext = {
  readonly base: string;
  readonly reviewer: Reviewer;
  readonly readOnly: boolean;
  readonly csrfToken: string;
};

/** The page around `content`: the console's own sheet and script, a skip link, the reviewer. */
export const pageLayout = (
  context: PageContext,
  title: string,
  content: SafeHtml,
): SafeHtml => html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · Review console</title>
<link rel="stylesheet" href="${context.base}/assets/console.css">
<script src="${context.base}/assets/console.js" defer></script>
</head>
<body>
<a class="skip-link" href="#main">Skip to the content</a>
<header class="top">
  <nav aria-label="Console"><a href="${context.base}/">Review queue</a></nav>
  <p class="who">Reviewer: <strong>${context.reviewer.name ?? context.reviewer.id}</strong>${
    context.readOnly ? html` <span class="badge">read-only</span>` : ''
  }</p>
</header>
<main id="main" tabindex="-1">
${content}
</main>
</body>
</html>
`;

/** The hidden fields of every form: the CSRF token, and a fresh Idempotency-Key for this submission. */
export const formGuards = (context: PageContext): SafeHtml =>
  html`<input type="hidden" name="_csrf" value="${context.csrfToken}"><input type="hidden" name="_idempotencyKey" value="${crypto.randomUUID()}">`;

/** The hidden field of a decision form: the version (`clientVersion`) of the client its page showed. */
export const SEEN_FIELD = '_seen';

/** A form that posts one action; disabled (and not submittable) in read-only mode. */
export const actionForm = (
  context: PageContext,
  target: FormTarget,
  label: string,
  fields: SafeHtml | string = '',
  options: { readonly className?: string; readonly disabled?: boolean; readonly describedBy?: string } = {},
): SafeHtml => html`<form method="post" action="${context.base}${target.path}" class="${options.className ?? 'action'}">
${formGuards(context)}${
  target.seenVersion === undefined
    ? ''
    : html`<input type="hidden" name="${SEEN_FIELD}" value="${target.seenVersion}">`
}${fields}
<button type="submit"${context.readOnly || options.disabled ? html` disabled` : ''}${
  options.describedBy ? html` aria-describedby="${options.describedBy}"` : ''
}>${label}</button>
</form>`;
