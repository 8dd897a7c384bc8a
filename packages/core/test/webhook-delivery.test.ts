import { createHmac, timingSafeEqual } from 'node:crypto';
import { createMemoryKit, type MemoryKit } from '@onboarding-kit/memory';
import { ResultAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import {
  isPublicUnicastAddress,
  type WebhookAnswer,
  type WebhookJob,
  type WebhookRequest,
} from '../src/adapter.js';
import {
  type CompliancePrincipal,
  createControllableClock,
  createOnboardingKit,
  exampleIndividualPayload,
  type ManagerPrincipal,
  type OnboardingKitOptions,
  principalKey,
  verifyWebhook,
} from '../src/index.js';
import { clientEventSchema } from '../src/schemas/index.js';
import { aManager } from './support/memory-kit.js';

const compliance: CompliancePrincipal = { kind: 'compliance', complianceId: 'officer-1' };
const HOUR = 3_600_000;
/**
 * The next turn of the event loop: every promise job queued before it has run by then. The memory
 * kit's work is promise jobs only, so this waits for it without waiting any time.
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const DAY = 24 * HOUR;

/** The spec's signature, computed here with node:crypto alone (not the kit's code nor its package). */
const independentlyVerified = (request: WebhookRequest, secret: string): boolean => {
  const id = request.headers['webhook-id'];
  const timestamp = request.headers['webhook-timestamp'];
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${request.body}`).digest();
  return (request.headers['webhook-signature'] ?? '').split(' ').some((entry) => {
    const [version, signature = ''] = entry.split(',');
    const given = Buffer.from(signature, 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
};

/** A memory kit on a controllable clock that starts now (receivers check timestamps against real time). */
const webhookKit = (kitOptions: OnboardingKitOptions = {}) => {
  const clock = createControllableClock(new Date());
  const kit = createMemoryKit({ clock, kitOptions });
  const upload = (principal: ManagerPrincipal, filename: string) =>
    kit.testing.putTemporaryFile(principalKey(principal), filename, new Uint8Array(64).fill(1));
  return { kit, clock, upload };
};

const registerEndpoint = async (kit: MemoryKit, manager: ManagerPrincipal, body: object = {}) =>
  (
    await kit.webhooks.createEndpoint(manager, { url: 'https://hooks.example.com/kit', ...body })
  )._unsafeUnwrap();

const createClient = async (
  kit: MemoryKit,
  upload: (m: ManagerPrincipal, f: string) => void,
  manager: ManagerPrincipal,
) => {
  upload(manager, 'passport.pdf');
  return (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
};

describe('webhook endpoints', () => {
  it('shows the whsec_ secret once, at creation; reads never show it', async () => {
    const { kit } = webhookKit();
    const manager = aManager();
    const created = await registerEndpoint(kit, manager, {
      description: 'portal',
      eventTypes: ['client.approved'],
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(created).toMatchObject({
      url: 'https://hooks.example.com/kit',
      description: 'portal',
      eventTypes: ['client.approved'],
    });
    const listed = (await kit.webhooks.listEndpoints(manager))._unsafeUnwrap();
    expect(listed.data).toEqual([{ ...created, secret: undefined }].map(({ secret: _s, ...rest }) => rest));
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    expect(
      JSON.stringify((await kit.webhooks.getEndpoint(manager, created.id))._unsafeUnwrap()),
    ).not.toContain('whsec_');
  });

  it("another manager's endpoint is not found, for reading, rotating, deleting and its deliveries", async () => {
    const { kit } = webhookKit();
    const owner = aManager();
    const other = aManager();
    const endpoint = await registerEndpoint(kit, owner);
    for (const outcome of [
      await kit.webhooks.getEndpoint(other, endpoint.id),
      await kit.webhooks.rotateSecret(other, endpoint.id, {}),
      await kit.webhooks.deleteEndpoint(other, endpoint.id),
      await kit.webhooks.listDeliveries(other, endpoint.id, {}),
    ]) {
      expect(outcome._unsafeUnwrapErr()).toEqual({
        type: 'WebhookEndpointNotFound',
        endpointId: endpoint.id,
      });
    }
    expect((await kit.webhooks.listEndpoints(other))._unsafeUnwrap().data).toEqual([]);
  });

  it.each([
    ['http://hooks.example.com/kit', 'Must use https'],
    ['https://127.0.0.1/kit', 'loopback'],
    ['https://2130706433/kit', 'loopback'],
    ['https://[::1]/kit', 'loopback'],
    ['https://[::ffff:127.0.0.1]/kit', 'loopback'],
    ['https://10.1.2.3/kit', 'private'],
    ['https://192.168.0.10/kit', 'private'],
    ['https://169.254.169.254/latest/meta-data', 'link-local'],
    ['https://100.64.0.1/kit', 'reserved'],
    ['https://[fd00::1]/kit', 'private'],
    ['https://[::7f00:1]/kit', 'loopback'],
    ['https://[::127.0.0.1]/kit', 'loopback'],
    ['https://[::a00:1]/kit', 'private'],
    ['https://[64:ff9b::7f00:1]/kit', 'reserved'],
    ['https://[2002:7f00:1::]/kit', 'reserved'],
    ['https://[4000::1]/kit', 'reserved'],
    ['https://0.0.0.0/kit', 'reserved'],
    ['https://localhost/kit', 'loopback'],
    ['https://api.localhost/kit', 'loopback'],
    ['https://intranet/kit', 'single-label'],
    ['https://user:secret@hooks.example.com/kit', 'credentials'],
    ['ftp://hooks.example.com/kit', 'http(s)'],
    ['/relative/kit', 'absolute'],
    ['https://hooks.example.com/kit#part', 'fragment'],
  ])('refuses %s as an endpoint (SSRF guard): 400 at url', async (url, message) => {
    const { kit } = webhookKit();
    const refused = (await kit.webhooks.createEndpoint(aManager(), { url }))._unsafeUnwrapErr();
    expect(refused.type).toBe('ValidationFailed');
    expect(refused).toMatchObject({ parameterErrors: { url: [expect.stringContaining(message)] } });
  });

  it('judges an address public only in public unicast space (IPv6: 2000::/3)', () => {
    for (const address of ['8.8.8.8', '2606:4700::1111', '[2a00:1450::1]', '::ffff:8.8.8.8']) {
      expect(isPublicUnicastAddress(address), address).toBe(true);
    }
    for (const address of [
      '::7f00:1',
      '::808:808',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      '4000::1',
      'not an ip',
    ]) {
      expect(isPublicUnicastAddress(address), address).toBe(false);
    }
  });

  it('accepts loopback and http only when the host opts in (webhookAllowPrivateNetworks)', async () => {
    const { kit } = webhookKit({ webhookAllowPrivateNetworks: true });
    const created = await registerEndpoint(kit, aManager(), { url: 'http://127.0.0.1:4000/hooks' });
    expect(created.url).toBe('http://127.0.0.1:4000/hooks');
  });

  it('refuses unknown fields, unknown event types and repeated ones', async () => {
    const { kit } = webhookKit();
    const manager = aManager();
    for (const body of [
      { url: 'https://hooks.example.com', extra: 1 },
      { url: 'https://hooks.example.com', eventTypes: ['client.exploded'] },
      { url: 'https://hooks.example.com', eventTypes: ['client.created', 'client.created'] },
      { url: 'https://hooks.example.com', eventTypes: [] },
      null,
      'https://hooks.example.com',
    ]) {
      expect((await kit.webhooks.createEndpoint(manager, body))._unsafeUnwrapErr().type).toBe(
        'ValidationFailed',
      );
    }
  });

  it('bounds the endpoints of one manager', async () => {
    const { kit } = webhookKit({ maxWebhookEndpointsPerManager: 2 });
    const manager = aManager();
    await registerEndpoint(kit, manager);
    await registerEndpoint(kit, manager);
    expect(
      (await kit.webhooks.createEndpoint(manager, { url: 'https://hooks.example.com/3' }))._unsafeUnwrapErr(),
    ).toEqual({
      type: 'WebhookEndpointLimitReached',
      limit: 2,
    });
  });
});

describe('webhook delivery (memory queue, controllable clock)', () => {
  it('delivers every event of a committed command once, signed per Standard Webhooks', async () => {
    const { kit, upload } = webhookKit();
    const manager = aManager();
    const { secret } = await registerEndpoint(kit, manager);
    const client = await createClient(kit, upload, manager);
    expect(kit.testing.sentWebhooks()).toEqual([]);

    const round = await kit.testing.deliverDueWebhooks();
    expect(round).toMatchObject({ jobs: 1, attempted: 2, succeeded: 2, retrying: 0, failed: 0 });
    const sent = kit.testing.sentWebhooks();
    const events = (await kit.events.list(manager, {}))._unsafeUnwrap().data;
    expect(sent.map((request) => JSON.parse(request.body))).toEqual(events);
    expect(events.map((event) => event.type)).toEqual(['client.created', 'documents.promoted']);
    for (const request of sent) {
      expect(request.url).toBe('https://hooks.example.com/kit');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['webhook-id']).toBe(JSON.parse(request.body).id);
      expect(independentlyVerified(request, secret)).toBe(true);
      const verified = verifyWebhook(request.body, request.headers, secret)._unsafeUnwrap();
      expect(clientEventSchema.parse(verified.event).id).toBe(verified.id);
    }
    expect(JSON.parse(sent[0]?.body ?? '{}').data.client.id).toBe(client.id);

    // Nothing more is due: a second round sends nothing again.
    expect(await kit.testing.deliverDueWebhooks()).toMatchObject({ jobs: 0, attempted: 0 });
    expect(kit.testing.sentWebhooks()).toHaveLength(2);
  });

  it('a refused command, and a manager without endpoints, enqueue nothing', async () => {
    const { kit, upload } = webhookKit();
    const withEndpoint = aManager();
    await registerEndpoint(kit, withEndpoint);
    // A create naming a file never uploaded, and a move the status machine refuses.
    expect((await kit.clients.createIndividual(withEndpoint, exampleIndividualPayload())).isErr()).toBe(true);
    const client = await createClient(kit, upload, aManager());
    expect((await kit.compliance.markTermsSigned(compliance, client.id))._unsafeUnwrapErr().type).toBe(
      'InvalidStatus',
    );
    expect(kit.testing.listWebhookJobs()).toEqual([]);
    expect(await kit.testing.deliverDueWebhooks()).toMatchObject({ jobs: 0 });
  });

  it('delivers only the event types an endpoint takes', async () => {
    const { kit, upload } = webhookKit();
    const manager = aManager();
    await registerEndpoint(kit, manager, { eventTypes: ['client.approved'] });
    const client = await createClient(kit, upload, manager);
    await kit.testing.deliverDueWebhooks();
    expect(kit.testing.sentWebhooks()).toEqual([]);
    await kit.compliance.approve(compliance, client.id);
    await kit.testing.deliverDueWebhooks();
    expect(kit.testing.sentWebhooks().map((request) => JSON.parse(request.body).type)).toEqual([
      'client.approved',
    ]);
  });

  it('retries with backoff and honours Retry-After, then succeeds; a deduplicating receiver sees each event once', async () => {
    const { kit, clock, upload } = webhookKit();
    const manager = aManager();
    const endpoint = await registerEndpoint(kit, manager, { eventTypes: ['client.created'] });
    kit.testing.answerWebhooksWith({ type: 'answered', statusCode: 503, retryAfter: '120' });
    await createClient(kit, upload, manager);
    expect(await kit.testing.deliverDueWebhooks()).toMatchObject({ attempted: 1, retrying: 1 });
    const [pending] = (await kit.webhooks.listDeliveries(manager, endpoint.id, {}))._unsafeUnwrap().data;
    expect(pending).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 503 });
    const waitMs = Date.parse(pending?.nextAttemptAt ?? '') - clock.now().getTime();
    expect(waitMs).toBeGreaterThanOrEqual(120_000);

    clock.advance(60_000);
    expect(await kit.testing.deliverDueWebhooks()).toMatchObject({ jobs: 0 });
    kit.testing.answerWebhooksWith({ type: 'unreachable', reason: 'connection failed' });
    clock.advance(waitMs);
    expect(await kit.testing.deliverDueWebhooks()).toMatchObject({ attempted: 1, retrying: 1 });
    kit.testing.answerWebhooksWith({ type: 'answered', statusCode: 204, retryAfter: null });
    clock.advance(HOUR);
    expect(await kit.testing.deliverDueWebhooks()).toMatchObject({ attempted: 1, succeeded: 1 });

    const [done] = (await kit.webhooks.listDeliveries(manager, endpoint.id, {}))._unsafeUnwrap().data;
    expect(done).toMatchObject({ status: 'succeeded', attempts: 3, nextAttemptAt: null, lastError: null });
    const ids = kit.testing.sentWebhooks().map((request) => request.headers['webhook-id']);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(1);
  });

  it('410 Gone ends the delivery at once: failed, no retry job (the endpoint is disabled: webhook-endpoint-disabling.test.ts)', async () => {
    const { kit, upload } = webhookKit();
    const manager = aManager();
    const endpoint = await registerEndpoint(kit, manager, { eventTypes: ['client.created'] });
    kit.testing.answerWebhooksWith({ type: 'answered', statusCode: 410, retryAfter: '5' });
    await createClient(kit, upload, manager);
    expect(await kit.testing.deliverDueWebhooks()).toMatchObject({ attempted: 1, failed: 1, retrying: 0 });
    const [gone] = (await kit.webhooks.listDeliveries(manager, endpoint.id, {}))._unsafeUnwrap().data;
    expect(gone).toMatchObject({ status: 'failed', attempts: 1, nextAttemptAt: null, lastStatusCode: 410 });
    expect(kit.testing.listWebhookJobs()).toEqual([]);
  });

  it('the backoff grows with jitter, and gives up after the retry window: failed, listed, redeliverable', async () => {
    const { kit, clock, upload } = webhookKit({ webhookRetryWindowMs: DAY });
    const manager = aManager();
    const endpoint = await registerEndpoint(kit, manager, { eventTypes: ['client.created'] });
    kit.testing.answerWebhooksWith({ type: 'answered', statusCode: 500, retryAfter: null });
    await createClient(kit, upload, manager);
    const delays: number[] = [];
    for (let round = 0; round < 40; round += 1) {
      await kit.testing.deliverDueWebhooks();
      const [delivery] = (await kit.webhooks.listDeliveries(manager, endpoint.id, {}))._unsafeUnwrap().data;
      if (delivery?.status !== 'pending' || delivery.nextAttemptAt === null) break;
      const delay = Date.parse(delivery.nextAttemptAt) - clock.now().getTime();
      delays.push(delay);
      clock.advance(delay);
    }
    expect(delays[0]).toBeGreaterThanOrEqual(2_500);
    expect(delays[0]).toBeLessThanOrEqual(5_000);
    expect(delays[3] ?? 0).toBeGreaterThan(delays[0] ?? 0);
    expect(Math.max(...delays)).toBeLessThanOrEqual(4 * HOUR);
    const failed = (
      await kit.webhooks.listDeliveries(manager, endpoint.id, { status: 'failed' })
    )._unsafeUnwrap().data;
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ status: 'failed', nextAttemptAt: null, lastStatusCode: 500 });
    expect(kit.testing.listWebhookJobs()).toEqual([]);

    kit.testing.answerWebhooksWith({ type: 'answered', statusCode: 200, retryAfter: null });
    const again = (await kit.webhooks.redeliver(manager, endpoint.id, failed[0]?.id ?? ''))._unsafeUnwrap();
    expect(again.status).toBe('pending');
    expect(await kit.testing.deliverDueWebhooks()).toMatchObject({ attempted: 1, succeeded: 1 });
    expect(
      (await kit.webhooks.listDeliveries(manager, endpoint.id, { status: 'succeeded' }))._unsafeUnwrap().data,
    ).toHaveLength(1);
    expect(
      (await kit.webhooks.redeliver(aManager(), endpoint.id, failed[0]?.id ?? ''))._unsafeUnwrapErr().type,
    ).toBe('WebhookEndpointNotFound');
  });

  it('rotation signs with both secrets during the overlap, then with the new one only', async () => {
    const { kit, clock, upload } = webhookKit();
    const manager = aManager();
    const { id, secret: oldSecret } = await registerEndpoint(kit, manager, {
      eventTypes: ['client.created'],
    });
    const rotation = (await kit.webhooks.rotateSecret(manager, id, { overlapSeconds: 3600 }))._unsafeUnwrap();
    expect(rotation.secret).not.toBe(oldSecret);
    expect((await kit.webhooks.getEndpoint(manager, id))._unsafeUnwrap().previousSecretExpiresAt).toBe(
      rotation.previousSecretExpiresAt,
    );
    await createClient(kit, upload, manager);
    await kit.testing.deliverDueWebhooks();
    const [during] = kit.testing.sentWebhooks();
    expect(during?.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(independentlyVerified(during as WebhookRequest, oldSecret)).toBe(true);
    expect(independentlyVerified(during as WebhookRequest, rotation.secret)).toBe(true);

    clock.advance(2 * HOUR);
    await createClient(kit, upload, manager);
    await kit.testing.deliverDueWebhooks();
    const after = kit.testing.sentWebhooks()[1] as WebhookRequest;
    expect(after.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(independentlyVerified(after, oldSecret)).toBe(false);
    expect(independentlyVerified(after, rotation.secret)).toBe(true);
  });

  it('keeps at most three secrets signing however many rotations overlap (the oldest ends first)', async () => {
    const { kit, upload } = webhookKit();
    const manager = aManager();
    const { id, secret: first } = await registerEndpoint(kit, manager, { eventTypes: ['client.created'] });
    const secrets = [first];
    for (let i = 0; i < 200; i += 1) {
      secrets.push(
        (await kit.webhooks.rotateSecret(manager, id, { overlapSeconds: 86_400 }))._unsafeUnwrap().secret,
      );
    }
    await createClient(kit, upload, manager);
    await kit.testing.deliverDueWebhooks();
    const [sent] = kit.testing.sentWebhooks();
    expect(sent?.headers['webhook-signature']?.split(' ')).toHaveLength(3);
    // The current secret and the two before it verify; the one rotated out before them does not.
    for (const secret of secrets.slice(-3))
      expect(independentlyVerified(sent as WebhookRequest, secret)).toBe(true);
    expect(independentlyVerified(sent as WebhookRequest, secrets.at(-4) ?? '')).toBe(false);
  });

  it('a removed endpoint gets nothing more, and its deliveries go with it', async () => {
    const { kit, upload } = webhookKit();
    const manager = aManager();
    const endpoint = await registerEndpoint(kit, manager);
    await createClient(kit, upload, manager);
    (await kit.webhooks.deleteEndpoint(manager, endpoint.id))._unsafeUnwrap();
    expect(await kit.testing.deliverDueWebhooks()).toMatchObject({ jobs: 1, attempted: 0 });
    expect(kit.testing.sentWebhooks()).toEqual([]);
    expect((await kit.webhooks.deleteEndpoint(manager, endpoint.id))._unsafeUnwrapErr().type).toBe(
      'WebhookEndpointNotFound',
    );
  });

  it('pages deliveries newest first with a cursor, and refuses a forged cursor', async () => {
    const { kit, clock, upload } = webhookKit();
    const manager = aManager();
    const endpoint = await registerEndpoint(kit, manager);
    for (let index = 0; index < 3; index += 1) {
      await createClient(kit, upload, manager);
      await kit.testing.deliverDueWebhooks();
      clock.advance(1000);
    }
    const first = (await kit.webhooks.listDeliveries(manager, endpoint.id, { limit: 4 }))._unsafeUnwrap();
    const second = (
      await kit.webhooks.listDeliveries(manager, endpoint.id, { limit: 4, cursor: first.nextCursor })
    )._unsafeUnwrap();
    expect(first.data).toHaveLength(4);
    expect(second.data).toHaveLength(2);
    expect(second.nextCursor).toBeNull();
    const all = [...first.data, ...second.data];
    expect(new Set(all.map((delivery) => delivery.id)).size).toBe(6);
    expect([...all].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).map((d) => d.createdAt)).toEqual(
      all.map((d) => d.createdAt),
    );
    for (const cursor of ['e1', 'WyJ4IiwieSJd', '%%%']) {
      expect(
        (await kit.webhooks.listDeliveries(manager, endpoint.id, { cursor }))._unsafeUnwrapErr(),
      ).toMatchObject({
        type: 'ValidationFailed',
        parameterErrors: { cursor: [expect.any(String)] },
      });
    }
  });
});

describe('verifyWebhook (for receivers)', () => {
  it('refuses a changed body, a wrong secret, missing or repeated headers and an old timestamp', async () => {
    const { kit, clock, upload } = webhookKit();
    const manager = aManager();
    const { secret } = await registerEndpoint(kit, manager, { eventTypes: ['client.created'] });
    await createClient(kit, upload, manager);
    await kit.testing.deliverDueWebhooks();
    const request = kit.testing.sentWebhooks()[0] as WebhookRequest;
    expect(verifyWebhook(request.body, request.headers, secret).isOk()).toBe(true);
    expect(
      verifyWebhook(new TextEncoder().encode(request.body), new Headers(request.headers), [secret]).isOk(),
    ).toBe(true);
    expect(verifyWebhook(request.body.replace('"', ' "'), request.headers, secret).isErr()).toBe(true);
    expect(
      verifyWebhook(request.body, request.headers, `whsec_${Buffer.alloc(24).toString('base64')}`).isErr(),
    ).toBe(true);
    const { 'webhook-signature': _dropped, ...unsigned } = request.headers;
    expect(verifyWebhook(request.body, unsigned, secret)._unsafeUnwrapErr().reason).toContain(
      'webhook-signature',
    );
    expect(
      verifyWebhook(request.body, { ...request.headers, 'Webhook-Id': ['a', 'b'] }, secret)._unsafeUnwrapErr()
        .reason,
    ).toContain('repeated');

    clock.advance(-10 * 60_000);
    await createClient(kit, upload, manager);
    await kit.testing.deliverDueWebhooks();
    const stale = kit.testing.sentWebhooks()[1] as WebhookRequest;
    expect(verifyWebhook(stale.body, stale.headers, secret)._unsafeUnwrapErr().reason).toMatch(/timestamp/i);
  });
});

describe('a job fanning out to many endpoints', () => {
  it('puts off, in one job and without waiting, the attempts to an endpoint that is slow and busy', async () => {
    const clock = createControllableClock(new Date());
    let hang = false;
    const hanging: Array<() => void> = [];
    const kit = createMemoryKit({
      clock,
      kitOptions: { webhookAttemptTimeoutMs: 10_000 },
      webhookTransport: {
        send: () =>
          ResultAsync.fromSafePromise(
            hang
              ? new Promise((resolve) =>
                  hanging.push(() => resolve({ type: 'unreachable' as const, reason: 'timeout' as const })),
                )
              : Promise.resolve({ type: 'unreachable' as const, reason: 'timeout' as const }),
          ),
      },
    });
    const manager = aManager();
    await registerEndpoint(kit, manager);
    const create = async (n: number) => {
      kit.testing.putTemporaryFile(principalKey(manager), `id-${n}.pdf`, new Uint8Array(64).fill(1));
      (
        await kit.clients.createIndividual(
          manager,
          exampleIndividualPayload({ idDocuments: [`id-${n}.pdf`] }),
        )
      )._unsafeUnwrap();
    };
    const jobsNow = () => kit.testing.listWebhookJobs().filter(({ runAt }) => runAt <= clock.now());
    // A first create finds the endpoint timing out: it is slow from then on.
    await create(0);
    await kit.testing.deliverDueWebhooks();
    hang = true;
    await create(1);
    await create(2);
    const [first, second] = jobsNow().map(({ job }) => job);
    // The first job's two attempts hang: the endpoint is at its limit.
    const firstRun = kit.webhooks.runJob(first as WebhookJob);
    await nextTurn();
    expect(hanging).toHaveLength(2);
    // The second job does not wait for them: its two deliveries go back as one job, due later.
    expect((await kit.webhooks.runJob(second as WebhookJob))._unsafeUnwrap()).toMatchObject({ attempted: 0 });
    expect(hanging).toHaveLength(2);
    const putOff = kit.testing.listWebhookJobs().filter(({ job }) => job.type === 'attempt-deliveries');
    expect(putOff).toHaveLength(1);
    expect(putOff[0]?.job).toMatchObject({ deliveries: [expect.anything(), expect.anything()] });
    const dueInMs = (putOff[0]?.runAt.getTime() ?? 0) - clock.now().getTime();
    expect(dueInMs).toBeGreaterThanOrEqual(10_000);
    expect(dueInMs).toBeLessThanOrEqual(20_000);
    // Still busy when it runs: put off again, unread.
    expect((await kit.webhooks.runJob(putOff[0]?.job as WebhookJob))._unsafeUnwrap()).toMatchObject({
      attempted: 0,
    });
    expect(hanging).toHaveLength(2);
    // Once the hanging attempts end, the put-off deliveries are attempted.
    for (const end of hanging.splice(0)) end();
    expect((await firstRun)._unsafeUnwrap()).toMatchObject({ attempted: 2 });
    hang = false;
    clock.advance(20_000);
    await kit.testing.deliverDueWebhooks();
    const [endpoint] = (await kit.webhooks.listEndpoints(manager))._unsafeUnwrap().data;
    const deliveries = (await kit.webhooks.listDeliveries(manager, endpoint?.id ?? '', {}))._unsafeUnwrap()
      .data;
    expect(deliveries).toHaveLength(6);
    expect(deliveries.filter(({ attempts }) => attempts === 0)).toEqual([]);
  });

  it("attempts a job's deliveries at once, two per endpoint, and every one of them", async () => {
    let running = 0;
    let most = 0;
    const sent: string[] = [];
    const clock = createControllableClock(new Date());
    const kit = createMemoryKit({
      clock,
      webhookTransport: {
        send: (request) =>
          ResultAsync.fromSafePromise(
            (async () => {
              running += 1;
              most = Math.max(most, running);
              // Ends on a later turn: every attempt the job starts at once is running by then.
              await nextTurn();
              running -= 1;
              sent.push(request.url);
              return { type: 'answered' as const, statusCode: 204, retryAfter: null };
            })(),
          ),
      },
    });
    const manager = aManager();
    for (let i = 0; i < 20; i += 1)
      await registerEndpoint(kit, manager, { url: `https://hooks.example.com/${i}` });
    kit.testing.putTemporaryFile(principalKey(manager), 'passport.pdf', new Uint8Array(64).fill(1));
    (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
    // One job: client.created and documents.promoted, each to 20 endpoints.
    await kit.testing.deliverDueWebhooks();
    expect(sent).toHaveLength(40);
    expect(new Set(sent).size).toBe(20);
    // Two events to each of 20 endpoints: one endpoint's attempts never wait for another's.
    expect(most).toBe(40);
  });
});

describe('a webhook job held by two workers', () => {
  it('sends each attempt once; the worker that found it claimed puts it off and sends nothing later', async () => {
    const clock = createControllableClock(new Date());
    const first = createMemoryKit({ clock });
    const sent: WebhookRequest[] = [];
    const answers: Array<() => void> = [];
    const transport = {
      send: (request: WebhookRequest) => {
        sent.push(request);
        return ResultAsync.fromSafePromise(
          new Promise<WebhookAnswer>((resolve) =>
            answers.push(() => resolve({ type: 'answered', statusCode: 204, retryAfter: null })),
          ),
        );
      },
    };
    // Two kits on the same stores: two processes, each with attempt slots of its own.
    const kits = [1, 2].map(() => createOnboardingKit({ ...first.adapters, webhookTransport: transport }));
    const manager = aManager();
    await registerEndpoint(first, manager);
    first.testing.putTemporaryFile(principalKey(manager), 'passport.pdf', new Uint8Array(64).fill(1));
    (await first.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
    const [queued] = first.testing.listWebhookJobs();
    if (queued === undefined) throw new Error('no job');
    // The same job on both, at once (one outlived its expiry; the engine handed it to the other).
    const runs = kits.map((kit) => kit.webhooks.runJob(queued.job));
    // Both runs go as far as they can: their sends wait for the answers, nothing else waits.
    for (let turn = 0; turn < 5; turn += 1) await nextTurn();
    // Two events, each sent once, by whichever worker claimed it first.
    expect(new Set(sent.map((request) => request.headers['webhook-id'])).size).toBe(2);
    expect(sent).toHaveLength(2);
    for (const answer of answers) answer();
    const reports = (await Promise.all(runs)).map((report) => report._unsafeUnwrap());
    expect(reports.reduce((sum, report) => sum + report.succeeded, 0)).toBe(2);
    // What a worker found claimed was put off; run then, it finds the attempts recorded: nothing more.
    clock.advance(60_000);
    await first.testing.deliverDueWebhooks();
    expect(sent).toHaveLength(2);
  });
});
