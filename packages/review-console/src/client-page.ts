import {
  type AuditEntry,
  type Client,
  type ResubmissionRequirementCode,
  resubmissionRequirementCodes,
  type ScreeningHit,
  type StatusHistoryEntry,
} from '@onboarding-kit/core';
import { clientName, screeningLabel, statusLabels } from './client-labels.js';
import { formActions, formTarget } from './form-actions.js';
import { html, type SafeHtml } from './html-template.js';
import { actionForm, formGuards, type PageContext, pageLayout } from './page-layout.js';
import { payloadFieldPaths, payloadView } from './payload-fields.js';

const codeLabels: Readonly<Record<ResubmissionRequirementCode, string>> = {
  DOCUMENT_UNREADABLE: 'Document unreadable',
  DOCUMENT_EXPIRED: 'Document expired',
  DOCUMENT_MISMATCH: 'Document does not match',
  INFORMATION_MISSING: 'Information missing',
  INFORMATION_INCORRECT: 'Information incorrect',
  OTHER: 'Other',
};

const sectionTitles: Readonly<Record<string, string>> = {
  profile: 'Profile',
  sourceOfFunds: 'Source of funds',
  company: 'Company',
  representatives: 'Representatives',
  companyDirectorsAndUbos: 'Directors and UBOs',
  bankAccounts: 'Bank accounts',
  blockchainWallets: 'Wallets',
};

/** A document key's original filename (`<uuid>_<filename>`). */
const filenameOf = (key: string): string => key.slice(key.indexOf('_') + 1);

const isDocumentList = (name: string, value: unknown): value is string[] =>
  /Documents$/.test(name) && Array.isArray(value) && value.every((item) => typeof item === 'string');

/** One document: a form that opens it inline in a new tab (its key travels in the body, never the URL). */
const documentLink = (context: PageContext, clientId: string, key: string): SafeHtml =>
  html`<form method="post" action="${context.base}/clients/${clientId}/documents/open" target="_blank" class="inline document">
${formGuards(context)}<input type="hidden" name="key" value="${key}">
<button type="submit" class="link">${filenameOf(key)}</button>
</form>`;

const humanize = (name: string): string =>
  name.replace(/([A-Z])/g, ' $1').replace(/^./, (first) => first.toUpperCase());

/** Any onboarding value as a definition list, documents as buttons that open them. */
const renderValue = (context: PageContext, clientId: string, value: unknown): SafeHtml => {
  if (value === null || value === undefined) return html`<span class="empty">—</span>`;
  if (Array.isArray(value)) {
    if (value.length === 0) return html`<span class="empty">none</span>`;
    return html`<ol class="items">${value.map((item) => html`<li>${renderValue(context, clientId, item)}</li>`)}</ol>`;
  }
  if (typeof value === 'object') {
    return html`<dl>${Object.entries(value)
      .filter(([name]) => name !== 'id')
      .map(
        ([name, field]) =>
          html`<div><dt>${humanize(name)}</dt><dd>${
            isDocumentList(name, field)
              ? field.length === 0
                ? html`<span class="empty">none</span>`
                : html`<ul class="documents">${field.map((key) => html`<li>${documentLink(context, clientId, key)}</li>`)}</ul>`
              : renderValue(context, clientId, field)
          }</dd></div>`,
      )}</dl>`;
  }
  return html`${String(value)}`;
};

/** What a hit may carry beyond the wire shape (the list matcher's explanation and entry), when present. */
const hitDetails = (hit: ScreeningHit): [string, unknown][] =>
  Object.entries(hit as Record<string, unknown>).filter(
    ([name]) => !['id', 'field', 'name', 'listName', 'matchedName', 'score', 'resolution'].includes(name),
  );

const hitSection = (context: PageContext, client: Client): SafeHtml => {
  const screening = client.screening;
  if (screening === null) return html`<p>The kit does not screen this client.</p>`;
  return html`<p>Screening: <strong>${screeningLabel(client)}</strong>${
    screening.screenedAt === null
      ? ''
      : html`, last run <time datetime="${screening.screenedAt}">${screening.screenedAt}</time>`
  }</p>
${screening.hits.map(
  (hit, index) => html`<article class="hit" aria-labelledby="hit-${index}">
  <h3 id="hit-${index}">${hit.name} ↔ ${hit.matchedName}</h3>
  <dl>
    <div><dt>Field</dt><dd>${hit.field}</dd></div>
    <div><dt>List</dt><dd>${hit.listName}</dd></div>
    <div><dt>Score</dt><dd>${Math.round(hit.score * 100)} %</dd></div>
    ${hitDetails(hit).map(([name, value]) => html`<div><dt>${humanize(name)}</dt><dd>${renderValue(context, client.id, value)}</dd></div>`)}
    <div><dt>Decision</dt><dd>${
      hit.resolution === null
        ? html`<strong>Open</strong>`
        : html`${hit.resolution.decision} by ${hit.resolution.actor}: ${hit.resolution.reason}`
    }</dd></div>
  </dl>
  ${actionForm(
    context,
    formTarget(formActions.resolveHit, { clientId: client.id, hitId: hit.id }, client),
    'Record the decision',
    html`<fieldset><legend>Decision on this hit</legend>
      <label><input type="radio" name="decision" value="DISMISSED" required> Dismiss (not the listed party)</label>
      <label><input type="radio" name="decision" value="CONFIRMED"> Confirm (the listed party)</label>
    </fieldset>
    <label>Reason <input type="text" name="reason" required maxlength="1000"></label>`,
  )}
</article>`,
)}`;
};

const requirementRows = (client: Client): SafeHtml => {
  const fields = payloadFieldPaths(client);
  return html`${[0, 1, 2].map(
    (row) => html`<fieldset class="requirement">
  <legend>Requirement ${row + 1} (optional)</legend>
  <label for="field${row}">Field</label> <select id="field${row}" name="field${row}"><option value="">—</option>${fields.map((field) => html`<option value="${field}">${field}</option>`)}</select>
  <label for="code${row}">Code</label> <select id="code${row}" name="code${row}">${resubmissionRequirementCodes.map((code) => html`<option value="${code}">${codeLabels[code]}</option>`)}</select>
  <label for="message${row}">Message</label> <input type="text" id="message${row}" name="message${row}" maxlength="1000">
</fieldset>`,
  )}`;
};

const actionsSection = (context: PageContext, client: Client): SafeHtml => {
  const approvable = client.status === 'ONBOARDING_UNDER_REVIEW' && client.requirements.length === 0;
  const requirements =
    client.requirements.length === 0
      ? html`<p id="requirements">Nothing stands in the way of the next step.</p>`
      : html`<ul id="requirements" class="requirements">${client.requirements.map(
          (requirement) =>
            html`<li><strong>${requirement.code}</strong>: ${requirement.message}${requirement.field === null ? '' : html` (<code>${requirement.field}</code>)`}</li>`,
        )}</ul>`;
  const forms: SafeHtml[] = [];
  if (client.status === 'ONBOARDING_UNDER_REVIEW') {
    forms.push(
      actionForm(context, formTarget(formActions.approve, { clientId: client.id }, client), 'Approve', '', {
        className: 'primary',
        disabled: !approvable,
        describedBy: 'requirements',
      }),
      html`<details><summary>Request a resubmission</summary>${actionForm(
        context,
        formTarget(formActions.requestResubmission, { clientId: client.id }, client),
        'Request the resubmission',
        html`<label>Reason shown to the manager <input type="text" name="reason" required maxlength="1000"></label>${requirementRows(client)}`,
      )}</details>`,
    );
  }
  if (client.status === 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE') {
    forms.push(
      html`<details open><summary>Record the terms signed</summary>${actionForm(
        context,
        formTarget(formActions.markTermsSigned, { clientId: client.id }, client),
        'Record the signature',
        html`<label>Terms version <input type="text" name="termsVersion" required maxlength="100"></label>
<label>Signed at (ISO 8601) <input type="text" name="signedAt" required placeholder="2026-11-27T10:00:00Z"></label>
<label>Signatory name <input type="text" name="signatoryName" required maxlength="1000"></label>
<label>IP address <input type="text" name="ipAddress" maxlength="100"></label>
<label>User agent <input type="text" name="userAgent" maxlength="1000"></label>`,
      )}</details>`,
    );
  }
  if (client.status !== 'DELETED') {
    forms.push(
      html`<details><summary>Delete the client</summary>${actionForm(
        context,
        formTarget(formActions.delete, { clientId: client.id }, client),
        'Delete',
        html`<label><input type="checkbox" name="confirm" value="yes" required> I mean to delete this client</label>`,
        { className: 'danger' },
      )}</details>`,
    );
  } else if (client.redactedAt === null) {
    forms.push(
      html`<details><summary>Erase the personal data</summary>${actionForm(
        context,
        formTarget(formActions.redact, { clientId: client.id }, client),
        'Redact',
        html`<label><input type="checkbox" name="confirm" value="yes" required> I mean to erase this client's personal data and documents</label>`,
        { className: 'danger' },
      )}</details>`,
    );
  }
  return html`<h2 id="next-step">Next step</h2>${requirements}${forms}`;
};

const assignmentSection = (context: PageContext, client: Client): SafeHtml => {
  const assignee = client.assignee;
  const mine = assignee?.complianceId === context.reviewer.id;
  return html`<p class="assignment">${
    assignee === null
      ? 'Unassigned'
      : html`Assigned to <strong>${mine ? 'you' : assignee.complianceId}</strong> since <time datetime="${assignee.assignedAt}">${assignee.assignedAt}</time>`
  }</p>
${mine || !['ONBOARDING_UNDER_REVIEW', 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE'].includes(client.status) ? '' : actionForm(context, formTarget(formActions.assign, { clientId: client.id }, client), 'Assign to me', '', { className: 'inline' })}
${assignee === null ? '' : actionForm(context, formTarget(formActions.release, { clientId: client.id }, client), 'Release', '', { className: 'inline' })}`;
};

/** A client's whole review on one page. */
export const clientPage = (
  context: PageContext,
  client: Client,
  history: readonly StatusHistoryEntry[],
  audit: { readonly data: readonly AuditEntry[]; readonly nextCursor: string | null },
  notice: SafeHtml | string,
): SafeHtml => {
  const sections = Object.entries(payloadView(client)).filter(([, value]) => value !== null);
  return pageLayout(
    context,
    clientName(client),
    html`<p><a href="${context.base}/">← Review queue</a></p>
<h1>${clientName(client)}</h1>
${notice}
<p class="summary">${client.clientType === 'INDIVIDUAL' ? 'Individual' : 'Entity'} · <strong>${statusLabels[client.status]}</strong> · created <time datetime="${client.createdAt}">${client.createdAt}</time>${
      client.onboardingResubmissionReason === null
        ? ''
        : html` · resubmission asked: ${client.onboardingResubmissionReason}`
    }</p>
${assignmentSection(context, client)}
<section aria-labelledby="next-step" class="panel">${actionsSection(context, client)}</section>
<section aria-labelledby="screening-heading" class="panel"><h2 id="screening-heading">Screening</h2>${hitSection(context, client)}</section>
<section aria-labelledby="onboarding-heading"><h2 id="onboarding-heading">Onboarding information</h2>
${sections.map(
  ([name, value]) =>
    html`<section class="onboarding" aria-labelledby="section-${name}"><h3 id="section-${name}">${sectionTitles[name] ?? name}</h3>${renderValue(context, client.id, value)}</section>`,
)}
${client.termsAcceptance === null ? '' : html`<section class="onboarding" aria-labelledby="section-terms"><h3 id="section-terms">Terms signed</h3>${renderValue(context, client.id, client.termsAcceptance)}</section>`}
</section>
<section aria-labelledby="history-heading"><h2 id="history-heading">Status history</h2>
<table><caption class="visually-hidden">Status history, oldest first</caption>
<thead><tr><th scope="col">When</th><th scope="col">From</th><th scope="col">To</th><th scope="col">Who</th><th scope="col">Reason</th></tr></thead>
<tbody>${history.map(
      (entry) =>
        html`<tr><td><time datetime="${entry.at}">${entry.at}</time></td><td>${entry.from === null ? '—' : statusLabels[entry.from]}</td><td>${statusLabels[entry.to]}</td><td>${entry.actor}</td><td>${entry.reason ?? ''}</td></tr>`,
    )}</tbody></table></section>
<section aria-labelledby="audit-heading"><h2 id="audit-heading">Audit trail</h2>
<ol class="timeline">${audit.data.map(
      (entry) =>
        html`<li><time datetime="${entry.at}">${entry.at}</time> <strong>${entry.action}</strong> by ${entry.actor.kind} ${entry.actor.id}${
          entry.documents.length === 0 ? '' : html` — ${entry.documents.map(filenameOf).join(', ')}`
        }${entry.changes.length === 0 ? '' : html` — ${entry.changes.map((change) => change.path).join(', ')}`}</li>`,
    )}</ol>
${audit.nextCursor === null ? '' : html`<p><a href="${context.base}/clients/${client.id}?auditCursor=${encodeURIComponent(audit.nextCursor)}">Later entries</a></p>`}
</section>`,
  );
};
