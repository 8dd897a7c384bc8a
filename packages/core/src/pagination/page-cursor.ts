import { utf8ToBytes } from '@noble/hashes/utils.js';
import { base64urlnopad } from '@scure/base';
import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { type ReviewQueueStatus, reviewQueueStatuses } from '../domain/review-queue.js';
import { type ValidationFailed, validationFailed } from '../errors.js';

/**
 * The one codec of every list cursor: base64url (no padding) of a JSON tuple whose every element a
 * zod schema of its kind checks. A cursor is only ever one the kit handed out, so anything else is
 * the same 400 at the cursor's parameter, decided here before any adapter sees it: no back end
 * reads a crafted value differently, and none fails on it as an outage.
 */

export const INVALID_CURSOR_MESSAGE = 'Invalid cursor: pass the nextCursor of a previous page';

/**
 * The query parameter a cursor comes in (`cursor`, or `after` for events): longer than any cursor
 * the kit hands out, or empty, it is the same invalid cursor as any other.
 */
export const cursorParameterSchema = z
  .string()
  .min(1, INVALID_CURSOR_MESSAGE)
  .max(200, INVALID_CURSOR_MESSAGE);

const ISO_INSTANT = /^(\d{4})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * An instant exactly as the kit writes it (`Date#toISOString`: UTC, milliseconds, `Z`), a real
 * date (`2026-02-30` is not), in years 0001..9999: inside PostgreSQL's timestamptz range, which has
 * no year 0, and never a JS date string (`Tue Nov 24 2026`), an offset or an expanded year.
 */
const cursorInstantSchema = z.string().refine((value) => {
  const year = ISO_INSTANT.exec(value)?.[1];
  if (year === undefined || year === '0000') return false;
  const instant = new Date(value);
  return !Number.isNaN(instant.getTime()) && instant.toISOString() === value;
});

/** A UUID as the kit writes it (lowercase), so every back end orders it the same way. */
const cursorUuidSchema = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

const BIGINT_MAX = '9223372036854775807';

/** A sequence number: decimal digits, no sign, exponent or leading zero, within PostgreSQL's bigint. */
const cursorSequenceSchema = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,18})$/)
  .refine((value) => value.length < BIGINT_MAX.length || value <= BIGINT_MAX);

export type PageCursor<T> = {
  readonly encode: (value: T) => string;
  /**
   * The value a cursor names (undefined without one), or `ValidationFailed` at `parameter`, the
   * query parameter it came in.
   */
  readonly decode: (cursor: string | undefined, parameter: string) => Result<T | undefined, ValidationFailed>;
};

const readJson = (cursor: string): unknown => {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(base64urlnopad.decode(cursor)));
  } catch {
    // Not base64url, not UTF-8 or not JSON: refused by the schema like any other shape.
    return undefined;
  }
};

/** A cursor over `T`, written as the tuple `toTuple` makes of it and checked by `tuple`. */
const pageCursor = <T, Tuple>(
  tuple: z.ZodType<Tuple>,
  toTuple: (value: T) => Tuple,
  fromTuple: (elements: Tuple) => T,
): PageCursor<T> => ({
  encode: (value) => base64urlnopad.encode(utf8ToBytes(JSON.stringify(toTuple(value)))),
  decode: (cursor, parameter) => {
    if (cursor === undefined) return ok(undefined);
    const parsed = tuple.safeParse(readJson(cursor));
    return parsed.success
      ? ok(fromTuple(parsed.data))
      : err(validationFailed('The query parameters are invalid', { [parameter]: [INVALID_CURSOR_MESSAGE] }));
  },
});

/** The last row of a list ordered newest first by (createdAt, id): clients, webhook deliveries. */
export const createdAtAndIdCursor = pageCursor(
  z.tuple([cursorInstantSchema, cursorUuidSchema]),
  ({ createdAt, id }: { readonly createdAt: string; readonly id: string }): [string, string] => [
    createdAt,
    id,
  ],
  ([createdAt, id]) => ({ createdAt, id }),
);

/**
 * The last event read: its log position (`EventLog`: digits, or digits `.` digits: `5` in memory,
 * `<transaction>.<position>` on PostgreSQL) as the tuple of its sequence numbers.
 */
export const eventPositionCursor = pageCursor(
  z.array(cursorSequenceSchema).min(1).max(2),
  (position: string) => position.split('.'),
  (sequences) => sequences.join('.'),
);

/** The last audit entry read: its position in the trail (`AuditLog`: one bigint). */
export const auditPositionCursor = pageCursor(
  z.tuple([cursorSequenceSchema]),
  (position: string): [string] => [position],
  ([position]) => position,
);

/** A queue turn (`ReviewQueuePosition`): an integer within PostgreSQL's integer, where turns live. */
const cursorTurnSchema = z.int().min(0).max(2_147_483_647);

/**
 * The last client of a review queue page: its waiting status, then its place in that status's
 * queue (turn, createdAt, id). A place never moves while its client waits, so a page after it
 * neither repeats nor skips a client that waits all along, whoever else comes, goes or is decided.
 */
export const reviewQueueCursor = pageCursor(
  z.tuple([z.enum(reviewQueueStatuses), cursorTurnSchema, cursorInstantSchema, cursorUuidSchema]),
  ({
    status,
    turn,
    createdAt,
    id,
  }: {
    readonly status: ReviewQueueStatus;
    readonly turn: number;
    readonly createdAt: string;
    readonly id: string;
  }): [ReviewQueueStatus, number, string, string] => [status, turn, createdAt, id],
  ([status, turn, createdAt, id]) => ({ status, turn, createdAt, id }),
);
