import { describe, expect, it } from 'vitest';
import { aManager, createMemoryKit } from '../support/memory-kit.js';

/**
 * `limit` of every list: decimal digits 1..100 (or, in process, a whole number), 20 when absent.
 * Anything a lenient number parse would take (hex, binary, exponent, padding, a decimal point, a
 * repeated parameter) is a 400 at `limit`.
 */
describe('the page size of a list (limit)', () => {
  const { kit } = createMemoryKit();
  const manager = aManager();
  let endpointId: string | undefined;
  const lists = {
    clients: (limit: unknown) => kit.clients.list(manager, { limit }),
    events: (limit: unknown) => kit.events.list(manager, { limit }),
    deliveries: async (limit: unknown) => {
      endpointId ??= (
        await kit.webhooks.createEndpoint(manager, { url: 'https://hooks.example.com/kit' })
      )._unsafeUnwrap().id;
      return kit.webhooks.listDeliveries(manager, endpointId, { limit });
    },
  };

  it.each(Object.entries(lists))(
    '%s: refuses every spelling but decimal digits 1..100',
    async (_name, list) => {
      for (const limit of [
        '0x10',
        '0b11',
        '0o7',
        '1e1',
        ' 12',
        '12 ',
        '12.0',
        '+5',
        '-1',
        '',
        '0',
        '101',
        'NaN',
        ['1', '2'],
        1.5,
        0,
        101,
        null,
        true,
        {},
        '1234567',
      ]) {
        const refused = (await list(limit))._unsafeUnwrapErr();
        expect(refused, JSON.stringify(limit)).toMatchObject({
          type: 'ValidationFailed',
          parameterErrors: { limit: ['Must be a whole number from 1 to 100'] },
        });
      }
    },
  );

  it.each(Object.entries(lists))(
    '%s: takes "1", "100", "007" and numbers, 20 when absent',
    async (_name, list) => {
      for (const limit of ['1', '100', '007', 5, undefined]) {
        expect((await list(limit)).isOk(), JSON.stringify(limit)).toBe(true);
      }
    },
  );
});
