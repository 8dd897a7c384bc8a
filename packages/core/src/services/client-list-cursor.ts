import { utf8ToBytes } from '@noble/hashes/utils.js';
import { base64urlnopad } from '@scure/base';
import { err, ok, type Result } from 'neverthrow';
import type { ClientListCursor } from '../ports/client-repository.js';

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
      !Number.isNaN(Date.parse(decoded[0]))
    ) {
      return ok({ createdAt: decoded[0], id: decoded[1] });
    }
  } catch {
    // Falls through: any undecodable cursor is reported the same way.
  }
  return err('Invalid cursor: pass the nextCursor of a previous page');
};
