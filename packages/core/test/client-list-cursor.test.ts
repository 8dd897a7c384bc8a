import { base64urlnopad } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { decodeClientListCursor, encodeClientListCursor } from '../src/services/client-list-cursor.js';

const crafted = (createdAt: unknown, id: unknown) =>
  base64urlnopad.encode(new TextEncoder().encode(JSON.stringify([createdAt, id])));
const id = '7f0c8d5e-3b1a-4c2d-9e8f-0a1b2c3d4e5f';

describe('the client list cursor', () => {
  it('reads back exactly what the kit hands out', () => {
    const cursor = { createdAt: '2026-11-23T08:00:00.123Z', id };
    expect(decodeClientListCursor(encodeClientListCursor(cursor))._unsafeUnwrap()).toEqual(cursor);
  });

  it.each([
    ['a JavaScript date string', crafted('Tue Mar 05 2024 10:00:00 GMT+0000', id)],
    ['a date without time', crafted('2026-11-23', id)],
    ['an offset instead of Z', crafted('2026-11-23T08:00:00.123+01:00', id)],
    ['no milliseconds', crafted('2026-11-23T08:00:00Z', id)],
    ['an impossible date', crafted('2026-02-30T08:00:00.000Z', id)],
    ['a year beyond 9999', crafted('+012026-11-23T08:00:00.000Z', id)],
    ['an id that is not a UUID', crafted('2026-11-23T08:00:00.123Z', 'not-a-uuid')],
    ['an id with SQL in it', crafted('2026-11-23T08:00:00.123Z', `${id}' OR '1'='1`)],
    ['a number for the id', crafted('2026-11-23T08:00:00.123Z', 42)],
    [
      'three items',
      base64urlnopad.encode(new TextEncoder().encode(JSON.stringify(['2026-11-23T08:00:00.123Z', id, 1]))),
    ],
    ['not base64url', '%%%'],
    ['padding', `${crafted('2026-11-23T08:00:00.123Z', id)}=`],
  ])('refuses %s', (_what, cursor) => {
    expect(decodeClientListCursor(cursor)._unsafeUnwrapErr()).toBe(
      'Invalid cursor: pass the nextCursor of a previous page',
    );
  });
});
