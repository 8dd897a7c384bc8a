import { utf8ToBytes } from '@noble/hashes/utils.js';
import { base64urlnopad } from '@scure/base';
import { err, ok, type Result } from 'neverthrow';
import { isUuid } from '../domain/uuid.js';
import type { ClientListCursor } from '../ports/client-repository.js';

/**
 * The instant exactly as the kit writes it (`Date#toISOString`): a cursor is only ever one the kit
 * handed out, so anything else (`Tue Mar 05 2024`, an offset, a leap second) is refused here rather
 * than read differently by each back end.
 */
const isCanonicalInstant = (value: string): boolean => {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value)) return false;
  const instant = new Date(value);
  return !Number.isNaN(instant.getTime()) && instant.toISOString() === value;
};

/** The opaque `cursor` of `GET /clients`: base64url of the last item's creation date and id. */
export const encodeClientListCursor = (cursor: ClientListCursor): string =>
  base64urlnopad.encode(utf8ToBytes(JSON.stringify([cursor.createdAt, cursor.id])));

export const decodeClientListCursor = (value: string): Result<ClientListCursor, string> => {
  try {
    const decoded: unknown = JSON.parse(
      new TextDecoder('utf-8', { fatal: true }).decode(base64urlnopad.decode(value)),
    );
    if (
      Array.isArray(decoded) &&
      decoded.length === 2 &&
      typeof decoded[0] === 'string' &&
      typeof decoded[1] === 'string' &&
      isCanonicalInstant(decoded[0]) &&
      isUuid(decoded[1])
    ) {
      return ok({ createdAt: decoded[0], id: decoded[1] });
    }
  } catch {
    // Falls through: any undecodable cursor is reported the same way.
  }
  return err('Invalid cursor: pass the nextCursor of a previous page');
};
