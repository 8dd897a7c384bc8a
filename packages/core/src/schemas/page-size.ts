import { z } from 'zod';

const MAX_PAGE_SIZE = 100;
const DEFAULT_PAGE_SIZE = 20;
const PAGE_SIZE_MESSAGE = `Must be a whole number from 1 to ${MAX_PAGE_SIZE}`;

/**
 * A page size query parameter: 1..100, default 20. A query string is read as decimal digits only;
 * `z.coerce.number()` also took `0x10`, `0b11`, `1e1`, ` 12 `, `12.0` and, on Express 4, an array
 * of repeated parameters (`limit=1&limit=2`). In-process callers may pass a number.
 */
export const pageSizeSchema = z.preprocess(
  (value) => (typeof value === 'string' && /^[0-9]{1,6}$/.test(value) ? Number(value) : value),
  z
    .int({ error: PAGE_SIZE_MESSAGE })
    .min(1, PAGE_SIZE_MESSAGE)
    .max(MAX_PAGE_SIZE, PAGE_SIZE_MESSAGE)
    // Inside the preprocess, where the OpenAPI document (input side) shows it.
    .default(DEFAULT_PAGE_SIZE),
);
