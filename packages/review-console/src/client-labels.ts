import type { Client, ClientStatus, ReviewQueueResponse } from '@onboarding-kit/core';

/** How a reviewer recognises a client in a list: the person's or the company's name. */
export const clientName = (client: Client): string => {
  if (client.individualProfile !== null) {
    return `${client.individualProfile.firstName} ${client.individualProfile.lastName}`;
  }
  if (client.company !== null) return client.company.name;
  return client.redactedAt === null ? '(no name)' : '(redacted)';
};

export const statusLabels: Readonly<Record<ClientStatus, string>> = {
  ONBOARDING_IN_PROGRESS: 'Onboarding in progress',
  ONBOARDING_UNDER_REVIEW: 'Under review',
  RESUBMISSION_REQUIRED: 'Resubmission required',
  WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE: 'Waiting for terms',
  VERIFIED: 'Verified',
  DELETED: 'Deleted',
};

export const screeningLabel = (client: Client): string => {
  const screening = client.screening;
  if (screening === null) return 'Not screened';
  const open = screening.hits.filter((hit) => hit.resolution === null).length;
  switch (screening.status) {
    case 'PENDING':
      return 'Pending';
    case 'ERROR':
      return 'Failed (retrying)';
    case 'CLEAR':
      return 'Clear';
    case 'POSSIBLE_MATCH':
      return open > 0 ? `${open} open hit${open === 1 ? '' : 's'}` : 'Hits resolved';
  }
};

/** "3 h", "2 d": how long ago, to the unit a reviewer needs. */
export const ageOf = (instant: string, now: number): string => {
  const minutes = Math.max(0, Math.floor((now - Date.parse(instant)) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h`;
  return `${Math.floor(minutes / 1440)} d`;
};

export type QueueCounts = ReviewQueueResponse['counts'];
