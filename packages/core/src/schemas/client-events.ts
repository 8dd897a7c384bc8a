import { z } from 'zod';
import { cursorParameterSchema } from '../pagination/page-cursor.js';
import { clientSchema, dateTimeSchema } from './client-response.js';
import { pageSizeSchema } from './page-size.js';

/** The version of the event body: a consumer can tell a shape it does not know. */
export const CLIENT_EVENT_API_VERSION = '1.0.0';

/** One event per state change of a client (docs/state-machine.md)… */
export const clientStateEventTypes = [
  'client.created',
  'client.resubmitted',
  'client.resubmission_requested',
  'client.approved',
  'client.terms_signed',
  'client.deleted',
  'client.redacted',
  /** Not a move of the status machine: the screening of a create or resubmit came back (its `client.screening`). */
  'client.screening_completed',
] as const;
/** …one per decision of compliance on a screening hit… */
export const screeningHitResolvedEventType = 'client.screening_hit_resolved';
/** …and one per promotion of documents. */
export const clientEventTypes = [
  ...clientStateEventTypes,
  screeningHitResolvedEventType,
  'documents.promoted',
] as const;
export type ClientEventType = (typeof clientEventTypes)[number];
export const clientEventTypeSchema = z.enum(clientEventTypes);

const eventFields = {
  id: z.uuid(),
  apiVersion: z.literal(CLIENT_EVENT_API_VERSION),
  createdAt: dateTimeSchema,
};

/** An event as a manager reads it (and, later, as webhooks deliver it). */
export const clientEventSchema = z
  .discriminatedUnion('type', [
    z.object({
      ...eventFields,
      type: z.enum(clientStateEventTypes),
      data: z.object({ client: clientSchema }),
    }),
    z.object({
      ...eventFields,
      type: z.literal(screeningHitResolvedEventType),
      /** The client as the decision left it, and which of its `screening.hits` was decided. */
      data: z.object({ client: clientSchema, hitId: z.uuid() }),
    }),
    z.object({
      ...eventFields,
      type: z.literal('documents.promoted'),
      data: z.object({
        clientId: z.uuid(),
        /** The permanent document keys, usable with request-batch-download. */
        documents: z.array(z.string()),
      }),
    }),
  ])
  .meta({ id: 'ClientEvent' });
export type ClientEvent = z.infer<typeof clientEventSchema>;

export const clientEventListResponseSchema = z
  .object({
    data: z.array(clientEventSchema),
    /** Pass it as `after` to read what follows; null when there is nothing yet to read after. */
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'ClientEventList' });
export type ClientEventListResponse = z.infer<typeof clientEventListResponseSchema>;

/** Query of `GET /events`: oldest first, after an opaque cursor, optionally of one type or one client. */
export const clientEventListQuerySchema = z.strictObject({
  after: cursorParameterSchema.optional(),
  limit: pageSizeSchema,
  type: clientEventTypeSchema.optional(),
  clientId: z.uuid().optional(),
});
