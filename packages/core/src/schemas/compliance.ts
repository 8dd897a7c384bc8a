import { z } from 'zod';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../validation/storable-text.js';
import { MAX_STRING_LENGTH } from './onboarding-payloads.js';

/** Body of the compliance team's `POST /clients/{id}/request-resubmission`. */
export const requestResubmissionBodySchema = z
  .strictObject({
    reason: z
      .string()
      .trim()
      .min(1, 'Required, must not be empty')
      .max(MAX_STRING_LENGTH)
      .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE),
  })
  .meta({
    id: 'RequestResubmission',
    examples: [{ reason: 'The proof of address is older than three months: please upload a recent one.' }],
  });
export type RequestResubmissionBody = z.infer<typeof requestResubmissionBodySchema>;
