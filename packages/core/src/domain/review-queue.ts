/**
 * The statuses in which a client waits for a reviewer, in the order the review queue shows them:
 * first the onboarding to review, then the terms to record. Within a status, managers take turns:
 * each manager's first waiting client, then each one's second ... (`ReviewQueuePosition`), so one
 * manager's burst never holds another manager's client back.
 */
export const reviewQueueStatuses = [
  'ONBOARDING_UNDER_REVIEW',
  'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
] as const;
export type ReviewQueueStatus = (typeof reviewQueueStatuses)[number];

export const isReviewQueueStatus = (status: string): status is ReviewQueueStatus =>
  (reviewQueueStatuses as readonly string[]).includes(status);
