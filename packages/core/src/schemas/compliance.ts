import { z } from 'zod';
import { MAX_STRING_LENGTH } from './onboarding-payloads.js';

/** Body of the compliance team's `POST /clients/{id}/request-resubmission`. */
export const requestResubmissionBodySchema = z
  .strictObject({ reason: z.string().trim().min(1, 'Required, must not be empty').max(MAX_STRING_LENGTH) })
  .meta({ id: 'RequestResubmission' });
export type RequestResubmissionBody = z.infer<typeof requestResubmissionBodySchema>;
