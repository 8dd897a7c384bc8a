import { z } from 'zod';
import { reviewQueueStatuses } from '../domain/review-queue.js';
import { cursorParameterSchema } from '../pagination/page-cursor.js';
import { clientSchema, clientTypeSchema, screeningStatuses } from './client-response.js';
import { pageSizeSchema } from './page-size.js';

export const reviewQueueStatusSchema = z.enum(reviewQueueStatuses);

/** A screening state to filter on: the screening's status, or NONE where the kit screened nobody. */
export const reviewQueueScreenings = [...screeningStatuses, 'NONE'] as const;
export const reviewQueueScreeningSchema = z.enum(reviewQueueScreenings);
export type ReviewQueueScreening = z.infer<typeof reviewQueueScreeningSchema>;

/** Whose clients: the caller's own, or nobody's. */
export const reviewQueueAssignees = ['me', 'unassigned'] as const;

const reviewQueueFilterShape = {
  status: reviewQueueStatusSchema.optional(),
  clientType: clientTypeSchema.optional(),
  screening: reviewQueueScreeningSchema.optional(),
};

/** Query of `GET /review-queue`: filters, a page size of 1..100 (default 20), an opaque cursor. */
export const reviewQueueQuerySchema = z.strictObject({
  ...reviewQueueFilterShape,
  assignee: z.enum(reviewQueueAssignees).optional(),
  limit: pageSizeSchema,
  cursor: cursorParameterSchema.optional(),
});
export type ReviewQueueQueryInput = z.input<typeof reviewQueueQuerySchema>;

/** Body of `POST /review-queue/assign-next` (optional): which waiting clients to take the next of. */
export const assignNextBodySchema = z
  .strictObject(reviewQueueFilterShape)
  .meta({ id: 'AssignNext', examples: [{ status: 'ONBOARDING_UNDER_REVIEW', clientType: 'INDIVIDUAL' }] });
export type AssignNextBody = z.infer<typeof assignNextBodySchema>;

export const reviewQueueCountsSchema = z
  .object({
    ONBOARDING_UNDER_REVIEW: z.int().nonnegative(),
    WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE: z.int().nonnegative(),
  })
  .meta({ id: 'ReviewQueueCounts' });

/**
 * A waiting client as the queue lists it: the Client, and the manager whose client it is (a
 * reviewer sorts and asks by manager). Optional in the shape, so that a queue answer built
 * elsewhere stays valid; the kit always fills it.
 */
export const reviewQueueEntrySchema = clientSchema
  .extend({
    /** The id of the manager (the host's `managerId`) that onboards the client. */
    managerId: z.string().optional(),
  })
  .meta({ id: 'ReviewQueueEntry' });
export type ReviewQueueEntry = z.infer<typeof reviewQueueEntrySchema>;

export const reviewQueueResponseSchema = z
  .object({
    data: z.array(reviewQueueEntrySchema),
    nextCursor: z.string().nullable(),
    /** How many clients each waiting status holds under the filters other than `status`. */
    counts: reviewQueueCountsSchema,
  })
  .meta({ id: 'ReviewQueue' });
export type ReviewQueueResponse = z.infer<typeof reviewQueueResponseSchema>;

/** What `assign-next` answers: the client now assigned to the caller, or null when none waits. */
export const assignNextResponseSchema = z
  .object({ client: clientSchema.nullable() })
  .meta({ id: 'AssignNextResult' });
export type AssignNextResponse = z.infer<typeof assignNextResponseSchema>;
