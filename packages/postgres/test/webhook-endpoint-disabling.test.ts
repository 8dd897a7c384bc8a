import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';
import { webhookKitOnPostgres } from './webhook-kit-on-postgres.js';

let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

describe('disabling a webhook endpoint on PostgreSQL', () => {
  it('410 Gone disables it: due deliveries fail unsent, new events make none, until its manager enables it', async () => {
    const { kit, receiver, principal, createClient } = webhookKitOnPostgres(database);
    const endpoint = (
      await kit.webhooks.createEndpoint(principal, {
        url: 'https://hooks.example.com/gone',
        eventTypes: ['client.created'],
      })
    )._unsafeUnwrap();
    const stored = async () =>
      (await database.adapters.webhookEndpoints.find(principal.managerId, endpoint.id))._unsafeUnwrap();
    /** Creates a client and runs the job delivering its `client.created` event. */
    const deliverNewEvent = async () => {
      await createClient();
      const events = (await kit.events.list(principal, { limit: 100 }))._unsafeUnwrap().data;
      const created = events.filter(({ type }) => type === 'client.created').at(-1);
      return (
        await kit.webhooks.runJob({ type: 'deliver-events', eventIds: [created?.id ?? ''] })
      )._unsafeUnwrap();
    };

    receiver.answerWith(() => ({ type: 'answered', statusCode: 500, retryAfter: null }));
    expect(await deliverNewEvent()).toMatchObject({ attempted: 1, retrying: 1 });
    const failingSince = (await stored())?.failingSince;
    expect(failingSince).toEqual(expect.any(String));
    receiver.answerWith(() => ({ type: 'answered', statusCode: 410, retryAfter: null }));
    expect(await deliverNewEvent()).toMatchObject({ attempted: 1, failed: 1 });
    const disabled = await stored();
    expect(disabled).toMatchObject({ failingSince, disabledReason: 'gone', disabledAt: expect.any(String) });
    expect((await kit.webhooks.getEndpoint(principal, endpoint.id))._unsafeUnwrap()).toMatchObject({
      failingSince,
      disabledAt: disabled?.disabledAt,
      disabledReason: 'gone',
    });
    expect(receiver.sent).toHaveLength(2);

    // A new event makes no delivery; the pending one, made due, fails without a request.
    expect(await deliverNewEvent()).toMatchObject({ attempted: 0, failed: 0 });
    const deliveries = async () =>
      (await kit.webhooks.listDeliveries(principal, endpoint.id, {}))._unsafeUnwrap().data;
    expect(await deliveries()).toHaveLength(2);
    const pending = (await deliveries()).find(({ status }) => status === 'pending');
    (await kit.webhooks.redeliver(principal, endpoint.id, pending?.id ?? ''))._unsafeUnwrap();
    expect(
      (
        await kit.webhooks.runJob({ type: 'attempt-delivery', deliveryId: pending?.id ?? '' })
      )._unsafeUnwrap(),
    ).toMatchObject({ attempted: 0, failed: 1 });
    expect((await deliveries()).find(({ id }) => id === pending?.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'endpoint disabled',
    });
    expect(receiver.sent).toHaveLength(2);

    // Enabled again by its manager: the streak starts afresh, and deliveries are sent.
    receiver.answerWith(() => ({ type: 'answered', statusCode: 204, retryAfter: null }));
    (await kit.webhooks.enableEndpoint(principal, endpoint.id))._unsafeUnwrap();
    expect(await stored()).toMatchObject({ failingSince: null, disabledAt: null, disabledReason: null });
    (await kit.webhooks.redeliver(principal, endpoint.id, pending?.id ?? ''))._unsafeUnwrap();
    expect(
      (
        await kit.webhooks.runJob({ type: 'attempt-delivery', deliveryId: pending?.id ?? '' })
      )._unsafeUnwrap(),
    ).toMatchObject({ attempted: 1, succeeded: 1 });
    expect(await deliverNewEvent()).toMatchObject({ attempted: 1, succeeded: 1 });
    expect(receiver.sent).toHaveLength(4);
  });
});
