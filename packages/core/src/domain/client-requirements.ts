import { match } from 'ts-pattern';
import type { Client, ClientRequirement, Screening } from '../schemas/client-response.js';

const requirement = (
  code: ClientRequirement['code'],
  message: string,
  about: { field?: string; hitId?: string } = {},
): ClientRequirement => ({ code, field: about.field ?? null, hitId: about.hitId ?? null, message });

/**
 * What the screening holds back from an approval or the signed terms, one entry per reason: the same rule as
 * `screeningAllowsApproval` (no entry exactly when it allows), item by item.
 */
export const screeningRequirements = (screening: Screening | null): ClientRequirement[] => {
  if (screening === null) return [];
  return match(screening.status)
    .with('PENDING', () => [requirement('SCREENING_PENDING', 'The screening of the client has not finished')])
    .with('ERROR', () => [
      requirement('SCREENING_FAILED', 'The screening of the client failed; it is retried'),
    ])
    .with('CLEAR', 'POSSIBLE_MATCH', () =>
      screening.hits.flatMap((hit) =>
        match(hit.resolution?.decision)
          .with('DISMISSED', () => [])
          .with('CONFIRMED', () => [
            requirement('SCREENING_HIT_CONFIRMED', 'A screening hit is confirmed: the client is on a list', {
              field: hit.field,
              hitId: hit.id,
            }),
          ])
          .with(undefined, () => [
            requirement('SCREENING_HIT_UNRESOLVED', 'A screening hit awaits a decision', {
              field: hit.field,
              hitId: hit.id,
            }),
          ])
          .exhaustive(),
      ),
    )
    .exhaustive();
};

/**
 * The client's `requirements`: what stands in the way of its next step now, computed from the
 * client alone, so the answer and the refusal of a review move never disagree.
 */
export const requirementsOf = (client: Omit<Client, 'requirements'>): ClientRequirement[] =>
  match(client.status)
    .with('ONBOARDING_UNDER_REVIEW', () => screeningRequirements(client.screening))
    // The signed terms are refused on the same screening rule as the approval.
    .with('WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE', () => [
      requirement('TERMS_NOT_SIGNED', 'The client has not signed the terms and conditions'),
      ...screeningRequirements(client.screening),
    ])
    .with('RESUBMISSION_REQUIRED', () => {
      const asked = client.resubmissionRequirements ?? [];
      const message = 'The manager has not resubmitted the onboarding';
      return asked.length === 0
        ? [requirement('RESUBMISSION_OUTSTANDING', message)]
        : asked.map((item) => requirement('RESUBMISSION_OUTSTANDING', message, { field: item.field }));
    })
    .with('DELETED', () => [requirement('CLIENT_DELETED', 'The client is deleted')])
    .with('VERIFIED', 'ONBOARDING_IN_PROGRESS', () => [])
    .exhaustive();
