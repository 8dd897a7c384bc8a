import type { ReviewQueueResponse } from '@onboarding-kit/core';
import { ageOf, clientName, screeningLabel, statusLabels } from './client-labels.js';
import { formActions, formTarget } from './form-actions.js';
import { html, type SafeHtml } from './html-template.js';
import { actionForm, type PageContext, pageLayout } from './page-layout.js';

/** The queue's filters as the query string gives them (each optional). */
export type QueueFilters = {
  readonly status?: string;
  readonly clientType?: string;
  readonly screening?: string;
  readonly assignee?: string;
};

const choice = (
  name: string,
  label: string,
  current: string | undefined,
  options: readonly [string, string][],
) => html`
<label>${label}
  <select name="${name}">
    <option value="">Any</option>
    ${options.map(([value, text]) => html`<option value="${value}"${current === value ? html` selected` : ''}>${text}</option>`)}
  </select>
</label>`;

/** The queue: filters, counts, "next unassigned", one page of waiting clients, managers in turn. */
export const queuePage = (
  context: PageContext,
  queue: ReviewQueueResponse,
  filters: QueueFilters,
  notice: SafeHtml | string,
  now: number,
  managerName: (managerId: string) => string = (managerId) => managerId,
): SafeHtml => {
  const nextQuery = new URLSearchParams(
    Object.entries({ ...filters, cursor: queue.nextCursor ?? '' }).filter(
      ([, value]) => value !== undefined && value !== '',
    ),
  );
  const rows = queue.data.map(
    (client) => html`<tr>
  <td><a href="${context.base}/clients/${client.id}">${clientName(client)}</a></td>
  <td>${client.clientType === 'INDIVIDUAL' ? 'Individual' : 'Entity'}</td>
  <td>${client.managerId === undefined ? '—' : managerName(client.managerId)}</td>
  <td>${statusLabels[client.status]}</td>
  <td><time datetime="${client.createdAt}">${ageOf(client.createdAt, now)}</time></td>
  <td>${screeningLabel(client)}</td>
  <td>${client.assignee === null ? 'Unassigned' : client.assignee.complianceId === context.reviewer.id ? 'You' : client.assignee.complianceId}</td>
  <td>${
    client.assignee?.complianceId === context.reviewer.id
      ? ''
      : actionForm(
          context,
          formTarget(formActions.assign, { clientId: client.id }, client),
          'Assign to me',
          html`<input type="hidden" name="returnTo" value="queue">`,
          {
            className: 'inline',
          },
        )
  }</td>
</tr>`,
  );
  return pageLayout(
    context,
    'Review queue',
    html`<h1>Review queue</h1>
${notice}
<section aria-labelledby="counts-heading" class="counts">
  <h2 id="counts-heading" class="visually-hidden">Waiting clients</h2>
  <p><span class="count">${queue.counts.ONBOARDING_UNDER_REVIEW}</span> under review ·
     <span class="count">${queue.counts.WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE}</span> waiting for terms</p>
  ${actionForm(context, formTarget(formActions.assignNext, {}), 'Assign me the next unassigned client', '', { className: 'primary' })}
</section>
<form method="get" action="${context.base}/" class="filters" aria-label="Filters">
  ${choice('status', 'Status', filters.status, [
    ['ONBOARDING_UNDER_REVIEW', 'Under review'],
    ['WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE', 'Waiting for terms'],
  ])}
  ${choice('clientType', 'Type', filters.clientType, [
    ['INDIVIDUAL', 'Individual'],
    ['ENTITY', 'Entity'],
  ])}
  ${choice('screening', 'Screening', filters.screening, [
    ['PENDING', 'Pending'],
    ['POSSIBLE_MATCH', 'Possible match'],
    ['CLEAR', 'Clear'],
    ['ERROR', 'Failed'],
    ['NONE', 'Not screened'],
  ])}
  ${choice('assignee', 'Assignee', filters.assignee, [
    ['me', 'Assigned to me'],
    ['unassigned', 'Unassigned'],
  ])}
  <button type="submit">Filter</button>
</form>
<table class="queue">
  <caption>Clients waiting for a reviewer, managers in turn</caption>
  <thead><tr><th scope="col">Client</th><th scope="col">Type</th><th scope="col">Manager</th><th scope="col">Status</th><th scope="col">Waiting</th><th scope="col">Screening</th><th scope="col">Assignee</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${rows.length === 0 ? html`<tr><td colspan="8">No client waits.</td></tr>` : rows}</tbody>
</table>
${queue.nextCursor === null ? '' : html`<p><a href="${context.base}/?${nextQuery.toString()}" rel="next">Next page</a></p>`}`,
  );
};
