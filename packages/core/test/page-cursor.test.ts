import { base64urlnopad } from '@scure/base';
import { describe, expect, it } from 'vitest';
import {
  createdAtAndIdCursor,
  eventPositionCursor,
  INVALID_CURSOR_MESSAGE,
} from '../src/pagination/page-cursor.js';

const tuple = (...elements: unknown[]) =>
  base64urlnopad.encode(new TextEncoder().encode(JSON.stringify(elements)));
const id = '7f0c8d5e-3b1a-4c2d-9e8f-0a1b2c3d4e5f';
const at = '2026-11-23T08:00:00.123Z';
const refusedAt = (parameter: string) => ({
  type: 'ValidationFailed',
  reason: 'The query parameters are invalid',
  parameterErrors: { [parameter]: [INVALID_CURSOR_MESSAGE] },
});

describe('the (createdAt, id) cursor of the client and webhook delivery lists', () => {
  it('reads back exactly what the kit hands out, at the edges of the range too', () => {
    for (const createdAt of [
      at,
      '0001-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
      '2028-02-29T00:00:00.000Z',
    ]) {
      const cursor = { createdAt, id };
      expect(
        createdAtAndIdCursor.decode(createdAtAndIdCursor.encode(cursor), 'cursor')._unsafeUnwrap(),
      ).toEqual(cursor);
    }
  });

  it('without a cursor, there is nothing to decode', () => {
    expect(createdAtAndIdCursor.decode(undefined, 'cursor')._unsafeUnwrap()).toBeUndefined();
  });

  it.each([
    ['a JavaScript date string', tuple('Tue Nov 24 2026 10:00:00 GMT+0000', id)],
    ['a short JavaScript date string', tuple('Tue Nov 24 2026', id)],
    ['a bare year', tuple('2026', id)],
    ['a date without time', tuple('2026-11-23', id)],
    ['an offset instead of Z', tuple('2026-11-23T08:00:00.123+01:00', id)],
    ['no milliseconds', tuple('2026-11-23T08:00:00Z', id)],
    ['an impossible date', tuple('2026-02-30T08:00:00.000Z', id)],
    ['February 29th of a common year', tuple('2027-02-29T08:00:00.000Z', id)],
    ['hour 24', tuple('2026-11-23T24:00:00.000Z', id)],
    ['year 0 (no such year in PostgreSQL)', tuple('0000-01-01T00:00:00.000Z', id)],
    ['an expanded year beyond PostgreSQL', tuple('+275760-09-13T00:00:00.000Z', id)],
    ['a negative expanded year', tuple('-000001-01-01T00:00:00.000Z', id)],
    ['a number for the instant', tuple(1_700_000_000_000, id)],
    ['an id that is not a UUID', tuple(at, 'not-a-uuid')],
    ['an uppercase UUID (ordered differently by each back end)', tuple(at, id.toUpperCase())],
    ['an id with SQL in it', tuple(at, `${id}' OR '1'='1`)],
    ['a number for the id', tuple(at, 42)],
    ['three elements', tuple(at, id, 1)],
    ['one element', tuple(at)],
    ['an object', base64urlnopad.encode(new TextEncoder().encode(JSON.stringify({ createdAt: at, id })))],
    ['not base64url', '%%%'],
    ['padding', `${tuple(at, id)}=`],
    ['not JSON', base64urlnopad.encode(new TextEncoder().encode('[2026'))],
    ['not UTF-8', base64urlnopad.encode(new Uint8Array([0x5b, 0xff, 0x5d]))],
    ['an event cursor', eventPositionCursor.encode('12')],
  ])('refuses %s at its parameter', (_what, cursor) => {
    expect(createdAtAndIdCursor.decode(cursor, 'cursor')._unsafeUnwrapErr()).toEqual(refusedAt('cursor'));
  });
});

describe('the event position cursor', () => {
  it('reads back the positions of both logs (memory: one number; PostgreSQL: transaction.position)', () => {
    for (const position of [
      '0',
      '1',
      '42',
      '9223372036854775807',
      '812.3',
      '9223372036854775807.9223372036854775807',
    ]) {
      expect(eventPositionCursor.decode(eventPositionCursor.encode(position), 'after')._unsafeUnwrap()).toBe(
        position,
      );
    }
  });

  it.each([
    ['the old `e` text form', base64urlnopad.encode(new TextEncoder().encode('e1.2'))],
    ['beyond bigint', tuple('9223372036854775808')],
    ['beyond bigint in the second place', tuple('1', '9999999999999999999')],
    ['twenty digits', tuple('10000000000000000000')],
    ['an exponent', tuple('1e3')],
    ['a decimal fraction', tuple('1.5')],
    ['a negative number', tuple('-1')],
    ['a leading zero', tuple('01')],
    ['a sign', tuple('+1')],
    ['a JSON number', tuple(1)],
    ['an empty string', tuple('')],
    ['no element', tuple()],
    ['three elements', tuple('1', '2', '3')],
    ['a client list cursor', createdAtAndIdCursor.encode({ createdAt: at, id })],
    ['not base64url', 'e1.9999999999999999999'],
  ])('refuses %s at its parameter', (_what, cursor) => {
    expect(eventPositionCursor.decode(cursor, 'after')._unsafeUnwrapErr()).toEqual(refusedAt('after'));
  });
});
