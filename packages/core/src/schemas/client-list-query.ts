import { z } from 'zod';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../validation/storable-text.js';
import { clientStatusSchema, clientTypeSchema } from './client-response.js';
import { pageSizeSchema } from './page-size.js';

/** Query of `GET /clients` (decisions §1): filters, a page size of 1..100 (default 20), an opaque cursor. */
export const clientListQuerySchema = z.strictObject({
  status: clientStatusSchema.optional(),
  clientType: clientTypeSchema.optional(),
  limit: pageSizeSchema,
  cursor: z.string().min(1).max(200).refine(isStorableText, UNSTORABLE_TEXT_MESSAGE).optional(),
});
export type ClientListQueryInput = z.input<typeof clientListQuerySchema>;
