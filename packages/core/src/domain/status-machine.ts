import { err, ok, type Result } from 'neverthrow';
import { type InvalidStatus, invalidStatus } from '../errors.js';
import type { ClientStatus } from '../schemas/client-response.js';

/** What moves a client from one status to another (decisions §3). */
export type ClientStatusTrigger =
  | 'CREATE'
  | 'APPROVE'
  | 'REQUEST_RESUBMISSION'
  | 'RESUBMIT'
  | 'SIGN_TERMS'
  | 'DELETE';
export type TransitionActor = 'manager' | 'compliance';

export type ClientStatusTransition = {
  readonly from: ClientStatus | null;
  readonly trigger: ClientStatusTrigger;
  readonly to: ClientStatus;
  readonly actor: TransitionActor;
};

const deletableStatuses: readonly ClientStatus[] = [
  'ONBOARDING_IN_PROGRESS',
  'ONBOARDING_UNDER_REVIEW',
  'RESUBMISSION_REQUIRED',
  'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
  'VERIFIED',
];

/** The status machine as data: every legal move, and nothing else. `ONBOARDING_IN_PROGRESS` is reserved. */
export const clientStatusTransitions: readonly ClientStatusTransition[] = [
  { from: null, trigger: 'CREATE', to: 'ONBOARDING_UNDER_REVIEW', actor: 'manager' },
  {
    from: 'ONBOARDING_UNDER_REVIEW',
    trigger: 'APPROVE',
    to: 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
    actor: 'compliance',
  },
  {
    from: 'ONBOARDING_UNDER_REVIEW',
    trigger: 'REQUEST_RESUBMISSION',
    to: 'RESUBMISSION_REQUIRED',
    actor: 'compliance',
  },
  { from: 'RESUBMISSION_REQUIRED', trigger: 'RESUBMIT', to: 'ONBOARDING_UNDER_REVIEW', actor: 'manager' },
  {
    from: 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
    trigger: 'SIGN_TERMS',
    to: 'VERIFIED',
    actor: 'compliance',
  },
  ...deletableStatuses.map(
    (from): ClientStatusTransition => ({ from, trigger: 'DELETE', to: 'DELETED', actor: 'manager' }),
  ),
];

/** The status a trigger moves an existing client to, or `InvalidStatus` naming where it stands. */
export const transitionClientStatus = (
  clientId: string,
  current: ClientStatus,
  trigger: Exclude<ClientStatusTrigger, 'CREATE'>,
): Result<ClientStatus, InvalidStatus> => {
  const transition = clientStatusTransitions.find((t) => t.from === current && t.trigger === trigger);
  return transition ? ok(transition.to) : err(invalidStatus(clientId, current, trigger));
};
