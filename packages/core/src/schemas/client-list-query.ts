import { z } from 'zod';
import { cursorParameterSchema } from '../pagination/page-cursor.js';
import { clientStatusSchema, clientTypeSchema } from './client-response.js';
import { pageSizeSchema } from './page-size.js';

/** Query of `GET /clients` (decisions §1): filters, a page size of 1..100 (default 20), an opaque cursor. */
export const clientListQuerySchema = z.strictObject({
  status: clientStatusSchema.optional(),
  clientType: clientTypeSchema.optional(),
  limit: pageSizeSchema,
  cursor: cursorParameterSchema.optional(),
});
export type ClientListQueryInput = z.input<typeof clientListQuerySchema>;
