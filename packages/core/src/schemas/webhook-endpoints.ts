import { z } from 'zod';
import { cursorParameterSchema } from '../pagination/page-cursor.js';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../validation/parse-request.js';
import { clientEventTypeSchema, clientEventTypes } from './client-events.js';
import { dateTimeSchema } from './client-response.js';
import { pageSizeSchema } from './page-size.js';

/** Longest endpoint URL accepted (what common browsers and proxies handle safely). */
export const MAX_WEBHOOK_URL_LENGTH = 2048;
/** Longest rotation overlap a manager may ask for: a week. */
export const MAX_WEBHOOK_SECRET_OVERLAP_SECONDS = 7 * 24 * 60 * 60;

const storableText = (max: number) => z.string().max(max).refine(isStorableText, UNSTORABLE_TEXT_MESSAGE);

/** Body of `POST /webhook-endpoints`. The URL's network rules are checked by core after parsing. */
export const webhookEndpointCreateBodySchema = z
  .strictObject({
    url: storableText(MAX_WEBHOOK_URL_LENGTH).min(1),
    description: storableText(500).optional(),
    /** The event types to deliver; all of them when absent. */
    eventTypes: z
      .array(clientEventTypeSchema)
      .min(1)
      .max(clientEventTypes.length)
      .refine((types) => new Set(types).size === types.length, 'Each event type at most once')
      .optional(),
  })
  .meta({
    examples: [
      {
        url: 'https://hooks.example.com/onboarding',
        description: 'Back office',
        eventTypes: ['client.approved', 'client.resubmission_requested'],
      },
    ],
  });

const webhookEndpointFields = {
  id: z.uuid(),
  url: z.string(),
  description: z.string().nullable(),
  /** The event types delivered; null: every type, including those a later version adds. */
  eventTypes: z.array(clientEventTypeSchema).nullable(),
  createdAt: dateTimeSchema,
  /** Until when the secret before the last rotation still signs deliveries, if it does. */
  previousSecretExpiresAt: dateTimeSchema.nullable(),
  /** Since when every attempt to it has failed; null when the last one succeeded (or none was made). */
  failingSince: dateTimeSchema.nullable(),
  /** When the kit disabled it (no new deliveries until `POST …/enable`); null while enabled. */
  disabledAt: dateTimeSchema.nullable(),
  /** `gone`: it answered 410 Gone; `failing`: every attempt failed for 5 days. Null while enabled. */
  disabledReason: z.enum(['gone', 'failing']).nullable(),
};

export const webhookEndpointSchema = z.object(webhookEndpointFields).meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

/** The answer of a creation: the only time the signing secret is shown. */
export const createdWebhookEndpointSchema = z
  .object({
    ...webhookEndpointFields,
    /** `whsec_` + base64 of 24 random bytes, as the Standard Webhooks spec writes secrets. */
    secret: z.string(),
  })
  .meta({ id: 'CreatedWebhookEndpoint' });
export type CreatedWebhookEndpoint = z.infer<typeof createdWebhookEndpointSchema>;

export const webhookEndpointListResponseSchema = z
  .object({ data: z.array(webhookEndpointSchema) })
  .meta({ id: 'WebhookEndpointList' });
export type WebhookEndpointListResponse = z.infer<typeof webhookEndpointListResponseSchema>;

/** Body of `POST /webhook-endpoints/{id}/rotate-secret` (all optional; `{}` or no body). */
export const webhookSecretRotationBodySchema = z
  .strictObject({
    /** How long the current secret keeps signing next to the new one (default: the kit's option). */
    overlapSeconds: z.number().int().min(0).max(MAX_WEBHOOK_SECRET_OVERLAP_SECONDS).optional(),
  })
  .meta({ examples: [{ overlapSeconds: 3600 }] });

export const webhookSecretRotationResponseSchema = z
  .object({
    secret: z.string(),
    previousSecretExpiresAt: dateTimeSchema.nullable(),
  })
  .meta({ id: 'WebhookSecretRotation' });
export type WebhookSecretRotationResponse = z.infer<typeof webhookSecretRotationResponseSchema>;

export const webhookDeliveryStatuses = ['pending', 'succeeded', 'failed'] as const;
export const webhookDeliveryStatusSchema = z.enum(webhookDeliveryStatuses);
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];

export const webhookDeliverySchema = z
  .object({
    id: z.uuid(),
    endpointId: z.uuid(),
    eventId: z.uuid(),
    eventType: clientEventTypeSchema,
    status: webhookDeliveryStatusSchema,
    attempts: z.number().int().min(0),
    createdAt: dateTimeSchema,
    lastAttemptAt: dateTimeSchema.nullable(),
    /** When the next attempt is due; null once it succeeded or failed for good. */
    nextAttemptAt: dateTimeSchema.nullable(),
    /** The receiver's HTTP status of the last attempt, null when none answered. */
    lastStatusCode: z.number().int().nullable(),
    /** Why the last attempt failed (a status, a timeout, a refused address), null after success. */
    lastError: z.string().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** Query of `GET /webhook-endpoints/{id}/deliveries`: newest first, optionally of one status. */
export const webhookDeliveryListQuerySchema = z.strictObject({
  status: webhookDeliveryStatusSchema.optional(),
  limit: pageSizeSchema,
  cursor: cursorParameterSchema.optional(),
});

export const webhookDeliveryListResponseSchema = z
  .object({
    data: z.array(webhookDeliverySchema),
    /** Pass it as `cursor` for the next (older) page; null on the last one. */
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'WebhookDeliveryList' });
export type WebhookDeliveryListResponse = z.infer<typeof webhookDeliveryListResponseSchema>;
