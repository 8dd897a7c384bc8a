import { z } from 'zod';

/** The one error body of every failure (decisions §2). */
export const errorCodes = [
  'VALIDATION_FAILED',
  'MALFORMED_JSON',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CLIENT_NOT_FOUND',
  'PRESET_FEE_NOT_FOUND',
  'DOCUMENT_NOT_FOUND',
  'WEBHOOK_ENDPOINT_NOT_FOUND',
  'WEBHOOK_DELIVERY_NOT_FOUND',
  'SCREENING_HIT_NOT_FOUND',
  'WEBHOOK_ENDPOINT_LIMIT_REACHED',
  'INVALID_STATUS',
  'SCREENING_UNRESOLVED',
  'CLIENT_CHANGED',
  'IDEMPOTENCY_REQUEST_IN_PROGRESS',
  'REQUEST_TIMEOUT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'IDEMPOTENCY_KEY_REUSED',
  'TOO_MANY_REQUESTS',
  'STORAGE_UNAVAILABLE',
  'SERVER_BUSY',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

export const errorBodySchema = z
  .object({
    code: z.enum(errorCodes),
    reason: z.string(),
    parameterErrors: z.record(z.string(), z.array(z.string())).nullable(),
    /**
     * Present only when `parameterErrors` was cut to its first paths: how many paths had errors in
     * all. An answer stays small however many errors a body holds.
     */
    totalParameterErrors: z.number().int().positive().optional().meta({
      description:
        'Present only when parameterErrors lists the first 100 paths: how many paths had errors in all',
    }),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof errorBodySchema>;
