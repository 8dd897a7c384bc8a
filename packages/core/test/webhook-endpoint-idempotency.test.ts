import { errAsync, okAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { type IdempotencyStore, storageUnavailable, type UnitOfWork } from '../src/adapter.js';
import {
  createOnboardingKit,
  exampleIndividualPayload,
  type IdempotentCommandContext,
  type ManagerPrincipal,
  type OnboardingKit,
  principalKey,
} from '../src/index.js';
import { aManager, createMemoryKit } from './support/memory-kit.js';

/**
 * A memory kit whose idempotency record can be made unwritable (`recordFails`): its completion then
 * fails wherever it is written, in a command's transaction or on its own, as when the process
 * dies between a command's write and its record.
 */
const kitWithFaultyRecord = () => {
  const base = createMemoryKit();
  const { adapters } = base;
  const fault = { recordFails: false };
  const recordFailure = () => errAsync(storageUnavailable('memory')(new Error('the record was not written')));
  const idempotency: IdempotencyStore = {
    ...adapters.idempotency,
    complete: (ref, outcome, at) =>
      fault.recordFails ? recordFailure() : adapters.idempotency.complete(ref, outcome, at),
  };
  const unitOfWork: UnitOfWork = {
    transaction: (work) =>
      adapters.unitOfWork.transaction((stores) =>
        work({
          ...stores,
          idempotency: {
            ...stores.idempotency,
            complete: (ref, outcome, at) =>
              fault.recordFails ? recordFailure() : stores.idempotency.complete(ref, outcome, at),
          },
        }),
      ),
  };
  const kit = createOnboardingKit({ ...adapters, idempotency, unitOfWork });
  return { ...base, kit, fault };
};

/** What the express binding does around a command: claim the key, then hand the claim to the command. */
const keyed = async <T>(
  kit: OnboardingKit,
  manager: ManagerPrincipal,
  route: string,
  key: string,
  body: unknown,
  command: (context: IdempotentCommandContext) => PromiseLike<T>,
) => {
  const owner = principalKey(manager);
  const claimed = (
    await kit.idempotency.claim({ scope: `${owner} ${route}`, key, owner, body })
  )._unsafeUnwrap();
  if (claimed.type === 'Replay') return { replayed: claimed.outcome } as const;
  return { ran: await command({ claim: claimed.ref }) } as const;
};

const ENDPOINT = { url: 'https://hooks.example.com/kit' };

describe('webhook endpoint commands and Idempotency-Key (decisions §5)', () => {
  it('invalid input releases the key: the corrected create, and the corrected rotation, run under it', async () => {
    const { kit } = createMemoryKit();
    const manager = aManager();
    const create = (body: object) =>
      keyed(kit, manager, 'POST /webhook-endpoints', 'k1', body, (context) =>
        kit.webhooks.createEndpoint(manager, body, context),
      );
    for (const invalid of [{ url: 'not a url' }, { url: 'http://127.0.0.1/hook' }, {}]) {
      const refused = await create(invalid);
      expect(refused.ran?._unsafeUnwrapErr().type).toBe('ValidationFailed');
    }
    const created = await create(ENDPOINT);
    const endpoint = created.ran?._unsafeUnwrap();
    expect(endpoint?.url).toBe(ENDPOINT.url);

    const rotate = (body: object) =>
      keyed(kit, manager, `POST /webhook-endpoints/${endpoint?.id}/rotate-secret`, 'k2', body, (context) =>
        kit.webhooks.rotateSecret(manager, endpoint?.id ?? '', body, context),
      );
    expect((await rotate({ overlapSeconds: -1 })).ran?._unsafeUnwrapErr().type).toBe('ValidationFailed');
    const rotated = await rotate({ overlapSeconds: 60 });
    expect(rotated.ran?._unsafeUnwrap().secret).toMatch(/^whsec_/);
    // And the success is what a retry replays.
    expect((await rotate({ overlapSeconds: 60 })).replayed).toEqual({
      kind: 'command',
      ok: true,
      value: rotated.ran?._unsafeUnwrap(),
    });
  });

  it('a create whose record fails keeps no endpoint: the retry under the same key makes exactly one', async () => {
    const { kit, fault } = kitWithFaultyRecord();
    const manager = aManager();
    const create = () =>
      keyed(kit, manager, 'POST /webhook-endpoints', 'k', ENDPOINT, (context) =>
        kit.webhooks.createEndpoint(manager, ENDPOINT, context),
      );
    fault.recordFails = true;
    expect((await create()).ran?._unsafeUnwrapErr().type).toBe('StorageUnavailable');
    expect((await kit.webhooks.listEndpoints(manager))._unsafeUnwrap().data).toEqual([]);
    fault.recordFails = false;
    const created = (await create()).ran?._unsafeUnwrap();
    expect((await create()).replayed).toEqual({ kind: 'command', ok: true, value: created });
    expect((await kit.webhooks.listEndpoints(manager))._unsafeUnwrap().data.map(({ id }) => id)).toEqual([
      created?.id,
    ]);
  });

  it('a delete or a rotation whose record fails changes nothing: the retry does it once and answers it', async () => {
    const { kit, adapters, fault } = kitWithFaultyRecord();
    const manager = aManager();
    const endpoint = (await kit.webhooks.createEndpoint(manager, ENDPOINT))._unsafeUnwrap();
    const secretsBefore = (
      await adapters.webhookEndpoints.find(manager.managerId, endpoint.id)
    )._unsafeUnwrap()?.secrets;

    const rotate = () =>
      keyed(kit, manager, `POST rotate ${endpoint.id}`, 'k', {}, (context) =>
        kit.webhooks.rotateSecret(manager, endpoint.id, {}, context),
      );
    fault.recordFails = true;
    expect((await rotate()).ran?._unsafeUnwrapErr().type).toBe('StorageUnavailable');
    // The secret the failed answer never showed was not put in place.
    expect(
      (await adapters.webhookEndpoints.find(manager.managerId, endpoint.id))._unsafeUnwrap()?.secrets,
    ).toEqual(secretsBefore);
    fault.recordFails = false;
    const rotated = (await rotate()).ran?._unsafeUnwrap();
    const secretsAfter = (
      await adapters.webhookEndpoints.find(manager.managerId, endpoint.id)
    )._unsafeUnwrap()?.secrets;
    expect(secretsAfter?.map(({ secret }) => secret)).toEqual([
      rotated?.secret,
      ...(secretsBefore ?? []).map(({ secret }) => secret),
    ]);

    const remove = () =>
      keyed(kit, manager, `DELETE ${endpoint.id}`, 'k', undefined, (context) =>
        kit.webhooks.deleteEndpoint(manager, endpoint.id, context),
      );
    fault.recordFails = true;
    expect((await remove()).ran?._unsafeUnwrapErr().type).toBe('StorageUnavailable');
    expect((await kit.webhooks.getEndpoint(manager, endpoint.id)).isOk()).toBe(true);
    fault.recordFails = false;
    // The retry deletes it and answers it deleted (not 404: the failed attempt removed nothing).
    expect((await remove()).ran?._unsafeUnwrap().id).toBe(endpoint.id);
    expect((await remove()).replayed).toMatchObject({
      kind: 'command',
      ok: true,
      value: { id: endpoint.id },
    });
  });

  it('a redelivery whose record fails neither changes the delivery nor enqueues its attempt', async () => {
    const { kit, adapters, upload, fault } = kitWithFaultyRecord();
    const manager = aManager();
    const endpoint = (await kit.webhooks.createEndpoint(manager, ENDPOINT))._unsafeUnwrap();
    upload(manager, 'passport.pdf');
    (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
    adapters.testing.answerWebhooksWith({ type: 'answered', statusCode: 204, retryAfter: null });
    await adapters.testing.deliverDueWebhooks(kit);
    const deliveries = (await kit.webhooks.listDeliveries(manager, endpoint.id, {}))._unsafeUnwrap().data;
    const [delivery] = deliveries;
    expect(delivery?.status).toBe('succeeded');
    expect(adapters.testing.listWebhookJobs()).toEqual([]);

    const redeliver = () =>
      keyed(kit, manager, `POST redeliver ${delivery?.id}`, 'k', undefined, (context) =>
        kit.webhooks.redeliver(manager, endpoint.id, delivery?.id ?? '', context),
      );
    fault.recordFails = true;
    expect((await redeliver()).ran?._unsafeUnwrapErr().type).toBe('StorageUnavailable');
    expect((await kit.webhooks.listDeliveries(manager, endpoint.id, {}))._unsafeUnwrap().data).toEqual(
      deliveries,
    );
    expect(adapters.testing.listWebhookJobs()).toEqual([]);
    fault.recordFails = false;
    expect((await redeliver()).ran?._unsafeUnwrap().status).toBe('pending');
    expect(adapters.testing.listWebhookJobs()).toHaveLength(1);
    expect((await redeliver()).replayed).toMatchObject({ kind: 'command', ok: true });
    expect(adapters.testing.listWebhookJobs()).toHaveLength(1);
  });

  it('a redelivery that keeps losing its race to recorded attempts is a retryable 503, never a recorded 404', async () => {
    const base = createMemoryKit();
    const { adapters, upload } = base;
    // Every compare-and-set of the delivery misses, as when a runner records attempts meanwhile.
    const unitOfWork: UnitOfWork = {
      transaction: (work) =>
        adapters.unitOfWork.transaction((stores) =>
          work({
            ...stores,
            webhookDeliveries: { ...stores.webhookDeliveries, update: () => okAsync(false) },
          }),
        ),
    };
    const kit = createOnboardingKit({ ...adapters, unitOfWork });
    const manager = aManager();
    const endpoint = (await kit.webhooks.createEndpoint(manager, ENDPOINT))._unsafeUnwrap();
    upload(manager, 'passport.pdf');
    (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
    await adapters.testing.deliverDueWebhooks(kit);
    const [delivery] = (await kit.webhooks.listDeliveries(manager, endpoint.id, {}))._unsafeUnwrap().data;
    const redeliver = () =>
      keyed(kit, manager, `POST redeliver ${delivery?.id}`, 'k', undefined, (context) =>
        kit.webhooks.redeliver(manager, endpoint.id, delivery?.id ?? '', context),
      );
    expect((await redeliver()).ran?._unsafeUnwrapErr().type).toBe('StorageUnavailable');
    // Not recorded: the same key runs again rather than replaying a refusal.
    expect((await redeliver()).ran?._unsafeUnwrapErr().type).toBe('StorageUnavailable');
  });

  it('records a 404 of an endpoint or a delivery and replays it, as any not-found refusal', async () => {
    const { kit } = createMemoryKit();
    const manager = aManager();
    const missing = crypto.randomUUID();
    const removed = await keyed(kit, manager, 'DELETE', 'k', undefined, (context) =>
      kit.webhooks.deleteEndpoint(manager, missing, context),
    );
    expect(removed.ran?._unsafeUnwrapErr()).toEqual({ type: 'WebhookEndpointNotFound', endpointId: missing });
    expect(
      (await keyed(kit, manager, 'DELETE', 'k', undefined, () => Promise.reject(new Error('ran again'))))
        .replayed,
    ).toEqual({
      kind: 'command',
      ok: false,
      error: { type: 'WebhookEndpointNotFound', endpointId: missing },
    });

    const endpoint = (await kit.webhooks.createEndpoint(manager, ENDPOINT))._unsafeUnwrap();
    const redelivered = await keyed(kit, manager, 'POST redeliver', 'k', undefined, (context) =>
      kit.webhooks.redeliver(manager, endpoint.id, missing, context),
    );
    expect(redelivered.ran?._unsafeUnwrapErr()).toEqual({
      type: 'WebhookDeliveryNotFound',
      deliveryId: missing,
    });
    expect(
      (
        await keyed(kit, manager, 'POST redeliver', 'k', undefined, () =>
          Promise.reject(new Error('ran again')),
        )
      ).replayed,
    ).toEqual({
      kind: 'command',
      ok: false,
      error: { type: 'WebhookDeliveryNotFound', deliveryId: missing },
    });
  });
});
