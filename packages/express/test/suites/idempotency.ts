import { randomUUID } from 'node:crypto';
import { exampleIndividualPayload } from '@onboarding-kit/core';
import express from 'express';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createAuthenticationMiddleware, createIdempotencyMiddleware } from '../../src/index.js';
import {
  createIndividual,
  errorBody,
  type Harness,
  startHarness,
  uploadFiles,
} from '../support/http-harness.js';

/** A gate the test opens: the host route below waits on it, so "in progress" is a state, not a race. */
const createGate = () => {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
};

/** Lets the requests and store calls that a fired timer started run to their end. */
const settle = async () => {
  for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
};

/**
 * The lock renewal runs on an interval and stops at a limit read from `Date.now()`: the tests that
 * follow it fake both and move time on, as they move the kit's clock, instead of waiting for it.
 */
const fakeRenewalTimers = () => vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });

/** Decisions §5 through HTTP, on the kit's routes and on a host's own route. */
export const describeIdempotency = () =>
  describe('Idempotency-Key', () => {
    let h: Harness;
    let transactionRuns = 0;
    let gate = createGate();
    beforeAll(async () => {
      h = await startHarness({
        // The spec's example: the host's own critical route on the client interface.
        hostRoutes: (app, kit) => {
          app.post(
            '/client/v1/transactions',
            createAuthenticationMiddleware(kit, { accept: 'client' }),
            express.json(),
            createIdempotencyMiddleware(kit.idempotency),
            (req, res, next) => {
              transactionRuns += 1;
              const run = transactionRuns;
              const wait = req.body?.waitForGate === true ? gate.opened : Promise.resolve();
              wait
                .then(() => res.status(201).json({ transactionId: randomUUID(), run, ...req.body }))
                .catch(next);
            },
          );
        },
      });
    });
    afterAll(() => h.close());

    const createWithKey = (apiKey: string, idempotencyKey: string, body: unknown) =>
      h.api
        .post('/manager/v1/clients/individuals')
        .set('SERVICE_API_KEY', apiKey)
        .set('Idempotency-Key', idempotencyKey)
        .send(body as object);

    const clientCount = async (apiKey: string) =>
      (await h.api.get('/manager/v1/clients?limit=100').set('SERVICE_API_KEY', apiKey)).body.data
        .length as number;

    test('same key, same body → the stored answer replayed with Idempotent-Replayed: true, nothing runs again', async () => {
      const manager = await h.register({ kind: 'manager', managerId: randomUUID() });
      await uploadFiles(h, manager, { 'passport.pdf': 'scan' });
      const body = exampleIndividualPayload({ idDocuments: ['passport.pdf'] });
      const key = randomUUID();
      const first = await createWithKey(manager, key, body);
      expect(first.status).toBe(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      // Same body, keys in another order: the canonical JSON is the same.
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(body));
      const again = await createWithKey(manager, key, reordered);
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(await clientCount(manager)).toBe(1);
    });

    test('same key, another body → 422 IDEMPOTENCY_KEY_REUSED, and the record is unchanged', async () => {
      const manager = await h.register({ kind: 'manager', managerId: randomUUID() });
      await uploadFiles(h, manager, { 'passport.pdf': 'scan' });
      const body = exampleIndividualPayload({ idDocuments: ['passport.pdf'] });
      const key = randomUUID();
      const first = await createWithKey(manager, key, body);
      expect(first.status).toBe(201);
      const reused = await createWithKey(manager, key, { ...body, blockchainWallets: [], bankAccounts: [] });
      expect(reused.status).toBe(422);
      expect(reused.body).toEqual(errorBody('IDEMPOTENCY_KEY_REUSED'));
      const replay = await createWithKey(manager, key, body);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual(first.body);
      expect(await clientCount(manager)).toBe(1);
    });

    test('same key while the first still runs → 409 with Retry-After: 1; then the replay', async () => {
      gate = createGate();
      const key = randomUUID();
      const send = () =>
        h.api
          .post('/client/v1/transactions')
          .set('SERVICE_API_KEY', h.keys.clientOfA)
          .set('Idempotency-Key', key)
          .send({ amount: 10, waitForGate: true });
      const runsBefore = transactionRuns;
      const first = send().then((response) => response);
      // The first request has claimed the key once its handler runs (and waits on the gate).
      await expect.poll(() => transactionRuns).toBe(runsBefore + 1);
      const second = await send();
      expect(second.status).toBe(409);
      expect(second.headers['retry-after']).toBe('1');
      expect(second.body).toEqual(errorBody('IDEMPOTENCY_REQUEST_IN_PROGRESS'));
      gate.open();
      const firstAnswer = await first;
      expect(firstAnswer.status).toBe(201);
      const replay = await send();
      expect(replay.status).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual(firstAnswer.body);
      expect(transactionRuns).toBe(runsBefore + 1);
    });

    test('a host route behind the middleware runs once per key, and anew without a key', async () => {
      const key = randomUUID();
      const runsBefore = transactionRuns;
      const send = (idempotencyKey?: string) => {
        const call = h.api.post('/client/v1/transactions').set('SERVICE_API_KEY', h.keys.clientOfA);
        return (idempotencyKey ? call.set('Idempotency-Key', idempotencyKey) : call).send({ amount: 5 });
      };
      const first = await send(key);
      const second = await send(key);
      expect([first.status, second.status]).toEqual([201, 201]);
      expect(second.body).toEqual(first.body);
      expect(transactionRuns).toBe(runsBefore + 1);
      await send();
      await send();
      expect(transactionRuns).toBe(runsBefore + 3);
    });

    test('a 400 releases the key: the corrected retry (file uploaded since) runs anew', async () => {
      const manager = await h.register({ kind: 'manager', managerId: randomUUID() });
      const body = exampleIndividualPayload({ idDocuments: ['late-scan.pdf'] });
      const key = randomUUID();
      const refused = await createWithKey(manager, key, body);
      expect(refused.status).toBe(400);
      expect(refused.body.parameterErrors).toHaveProperty(['profile.idDocuments[0]']);
      await uploadFiles(h, manager, { 'late-scan.pdf': 'scan' });
      const retried = await createWithKey(manager, key, body);
      expect(retried.status).toBe(201);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      expect(await clientCount(manager)).toBe(1);
    });

    test('a body refused before the command (415, nested 20,000 deep) never claims the key: the corrected retry runs', async () => {
      const batchUpload = (key: string) =>
        h.api
          .post('/manager/v1/uploads/request-batch-upload')
          .set('SERVICE_API_KEY', h.keys.managerA)
          .set('Idempotency-Key', key);
      const wrongType = randomUUID();
      expect((await batchUpload(wrongType).set('Content-Type', 'text/plain').send('a.pdf')).status).toBe(415);
      // JSON.parse takes it; its canonical JSON (the fingerprint) must refuse it, not overflow.
      const tooDeep = randomUUID();
      const deep = `{"filenames":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
      const refused = await batchUpload(tooDeep).set('Content-Type', 'application/json').send(deep);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        parameterErrors: { body: [expect.stringContaining('nested too deeply')] },
      });
      for (const key of [wrongType, tooDeep]) {
        const corrected = await batchUpload(key).send({ filenames: ['a.pdf'] });
        expect(corrected.status).toBe(200);
        expect(corrected.headers['idempotent-replayed']).toBeUndefined();
      }
    });

    test('50 parallel creates with one key → exactly one client', async () => {
      const manager = await h.register({ kind: 'manager', managerId: randomUUID() });
      await uploadFiles(h, manager, { 'passport.pdf': 'scan' });
      const body = exampleIndividualPayload({ idDocuments: ['passport.pdf'] });
      const key = randomUUID();
      const answers = await Promise.all(Array.from({ length: 50 }, () => createWithKey(manager, key, body)));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
      const created = answers.filter((answer) => answer.status === 201);
      expect(created.length).toBeGreaterThanOrEqual(1);
      expect(new Set(created.map((answer) => answer.body.id)).size).toBe(1);
      expect(await clientCount(manager)).toBe(1);
      const replay = await createWithKey(manager, key, body);
      expect(replay.body.id).toBe(created[0]?.body.id);
    });

    test('the scope is the caller + method + route: the same key elsewhere runs separately', async () => {
      const key = randomUUID();
      await uploadFiles(h, h.keys.managerA, { 'scope-a.pdf': 'a' });
      await uploadFiles(h, h.keys.managerB, { 'scope-a.pdf': 'b' });
      const body = exampleIndividualPayload({ idDocuments: ['scope-a.pdf'] });
      const ofA = await createWithKey(h.keys.managerA, key, body);
      const ofB = await createWithKey(h.keys.managerB, key, body);
      expect([ofA.status, ofB.status]).toEqual([201, 201]);
      expect(ofB.headers['idempotent-replayed']).toBeUndefined();
      expect(ofB.body.id).not.toBe(ofA.body.id);
      const otherRoute = await h.api
        .post('/manager/v1/uploads/request-batch-upload')
        .set('SERVICE_API_KEY', h.keys.managerA)
        .set('Idempotency-Key', key)
        .send({ filenames: ['x.pdf'] });
      expect(otherRoute.status).toBe(200);
      expect(otherRoute.headers['idempotent-replayed']).toBeUndefined();
    });

    test('a command running past twice the lock TTL keeps its lock: the retry waits (409), then replays; it ran once', async () => {
      const lockTtlMs = 300;
      let runs = 0;
      let entered = createGate();
      const release = createGate();
      const slow = await startHarness({
        kitOptions: { idempotencyLockTtlMs: lockTtlMs },
        hostRoutes: (app, kit) => {
          app.post(
            '/client/v1/slow-transfers',
            createAuthenticationMiddleware(kit, { accept: 'client' }),
            express.json(),
            createIdempotencyMiddleware(kit.idempotency),
            (req, res, next) => {
              runs += 1;
              entered.open();
              release.opened.then(() => res.status(201).json({ run: runs, ...req.body })).catch(next);
            },
          );
        },
      });
      try {
        const send = () =>
          slow.api
            .post('/client/v1/slow-transfers')
            .set('SERVICE_API_KEY', slow.keys.clientOfA)
            .set('Idempotency-Key', 'slow-1')
            .send({ amount: 10 });
        fakeRenewalTimers();
        const first = send().then((response) => response);
        await entered.opened;
        // The kit's clock passes 2 × the TTL while the renewals (every 100 ms) run.
        for (let step = 0; step < 4; step += 1) {
          slow.clock.advance(lockTtlMs / 2);
          await vi.advanceTimersByTimeAsync(lockTtlMs / 2);
          await settle();
        }
        const during = await send();
        expect(during.status).toBe(409);
        expect(during.body).toEqual(errorBody('IDEMPOTENCY_REQUEST_IN_PROGRESS'));
        entered = createGate();
        release.open();
        expect((await first).status).toBe(201);
        const after = await send();
        expect([after.status, after.headers['idempotent-replayed'], after.body]).toEqual([
          201,
          'true',
          { run: 1, amount: 10 },
        ]);
        expect(runs).toBe(1);
        expect(slow.logged).toEqual([]);
      } finally {
        vi.useRealTimers();
        release.open();
        await slow.close();
      }
    });

    test('a handler that never answers stops renewing its lock after idempotencyLockMaxRenewalMs: a retry then takes the key over', async () => {
      const lockTtlMs = 300;
      let runs = 0;
      const entered = createGate();
      const warned: string[] = [];
      const stuck = await startHarness({
        kitOptions: { idempotencyLockTtlMs: lockTtlMs, idempotencyLockMaxRenewalMs: 600 },
        hostRoutes: (app, kit) => {
          app.post(
            '/client/v1/stuck-transfers',
            createAuthenticationMiddleware(kit, { accept: 'client' }),
            express.json(),
            createIdempotencyMiddleware(kit.idempotency, {
              logger: { error: () => undefined, warn: (message) => warned.push(message) },
            }),
            (_req, res) => {
              runs += 1;
              entered.open();
              // The first run never answers; the retry that takes the key over does.
              if (runs > 1) res.status(201).json({ run: runs });
            },
          );
        },
      });
      try {
        const send = (timeoutMs: number) =>
          stuck.api
            .post('/client/v1/stuck-transfers')
            .set('SERVICE_API_KEY', stuck.keys.clientOfA)
            .set('Idempotency-Key', 'stuck-1')
            .send({ amount: 10 })
            .timeout(timeoutMs);
        fakeRenewalTimers();
        // Its caller gives up after a second: the handler goes on (and would keep renewing).
        void send(1_000).catch(() => undefined);
        await entered.opened;
        // Past the renewal limit; then the kit's clock passes 2 × the TTL with steps in which a
        // renewal, had it gone on, would have run.
        await vi.advanceTimersByTimeAsync(700);
        await settle();
        for (let step = 0; step < 4; step += 1) {
          stuck.clock.advance(lockTtlMs / 2);
          await vi.advanceTimersByTimeAsync(lockTtlMs / 2);
          await settle();
        }
        const retry = await send(5_000);
        expect([retry.status, retry.body]).toEqual([201, { run: 2 }]);
        expect(warned).toEqual([
          'onboarding-kit: stopped renewing the idempotency lock of a request still running',
        ]);
      } finally {
        vi.useRealTimers();
        await stuck.close();
      }
    });

    describe('mounted before routing (app.use), the scope is read from the path', () => {
      let mounted: Harness;
      let runs: string[] = [];
      beforeAll(async () => {
        mounted = await startHarness({
          hostRoutes: (app, kit) => {
            app.use(
              '/client/v1/accounts',
              createAuthenticationMiddleware(kit, { accept: 'client' }),
              express.json(),
              createIdempotencyMiddleware(kit.idempotency),
            );
            app.post('/client/v1/accounts/:accountId/transfers', (req, res) => {
              runs.push(req.params.accountId ?? '');
              res.status(201).json({ run: runs.length, account: req.params.accountId });
            });
          },
        });
      });
      afterAll(() => mounted.close());
      const send = (path: string, key: string) =>
        mounted.api
          .post(path)
          .set('SERVICE_API_KEY', mounted.keys.clientOfA)
          .set('Idempotency-Key', key)
          .send({ amount: 10 });

      test('an encoded letter, an encoded space or a trailing slash is the same path: the first answer replayed, run once', async () => {
        runs = [];
        const spellings = [
          '/client/v1/accounts/acc%20one/transfers',
          '/client/v1/accounts/%61cc%20one/transfers',
          '/client/v1/accounts/ac%63%20one/transfers',
          '/client/v1/accounts/acc%20one/transfers/',
        ];
        const answers = [];
        for (const path of spellings) answers.push(await send(path, 'k-spelling'));
        expect(answers.map((answer) => [answer.status, answer.body])).toEqual(
          spellings.map(() => [201, { run: 1, account: 'acc one' }]),
        );
        expect(answers.map((answer) => answer.headers['idempotent-replayed'])).toEqual([
          undefined,
          'true',
          'true',
          'true',
        ]);
        expect(runs).toEqual(['acc one']);
        // An encoded slash stays inside its segment: another path, another scope.
        expect((await send('/client/v1/accounts/a%2Fb/transfers', 'k-slash')).status).toBe(201);
        expect((await send('/client/v1/accounts/a/b/transfers', 'k-slash')).status).toBe(404);
        expect(runs).toEqual(['acc one', 'a/b']);
      });

      test('ids differing only in case are two resources: one never gets the other’s answer; a case respelling under one key is 422, never a second run', async () => {
        runs = [];
        const first = await send('/client/v1/accounts/ACC1/transfers', 'k-case');
        expect([first.status, first.body]).toEqual([201, { run: 1, account: 'ACC1' }]);
        // Under the same key: refused, not ACC1's recorded answer and not a run.
        const other = await send('/client/v1/accounts/acc1/transfers', 'k-case');
        expect([other.status, other.body]).toEqual([422, errorBody('IDEMPOTENCY_KEY_REUSED')]);
        // With its own key, acc1 runs for acc1.
        const own = await send('/client/v1/accounts/acc1/transfers', 'k-case-2');
        expect([own.status, own.body, own.headers['idempotent-replayed']]).toEqual([
          201,
          { run: 2, account: 'acc1' },
          undefined,
        ]);
        // Express folds case in the fixed segments: this is ACC1's transfer again, and it does not run twice.
        const respelled = await send('/CLIENT/v1/Accounts/ACC1/Transfers', 'k-case');
        expect([respelled.status, respelled.body]).toEqual([422, errorBody('IDEMPOTENCY_KEY_REUSED')]);
        // The exact spelling still replays.
        const replay = await send('/client/v1/accounts/ACC1/transfers', 'k-case');
        expect([replay.status, replay.body, replay.headers['idempotent-replayed']]).toEqual([
          201,
          { run: 1, account: 'ACC1' },
          'true',
        ]);
        expect(runs).toEqual(['ACC1', 'acc1']);
        expect(mounted.logged).toEqual([]);
      });
    });

    test('a caller over its quota of live keys → 429 TOO_MANY_REQUESTS with Retry-After; replays, others and keyless calls go on', async () => {
      const limited = await startHarness({ kitOptions: { idempotencyMaxRecordsPerOwner: 2 } });
      try {
        const upload = (apiKey: string, idempotencyKey?: string) => {
          const call = limited.api
            .post('/manager/v1/uploads/request-batch-upload')
            .set('SERVICE_API_KEY', apiKey)
            .send({ filenames: ['quota.pdf'] });
          return idempotencyKey === undefined ? call : call.set('Idempotency-Key', idempotencyKey);
        };
        expect((await upload(limited.keys.managerA, 'k-1')).status).toBe(200);
        limited.clock.advance(10_000);
        expect((await upload(limited.keys.managerA, 'k-2')).status).toBe(200);
        limited.clock.advance(10_000);

        const refused = await upload(limited.keys.managerA, 'k-3');
        expect(refused.status).toBe(429);
        expect(refused.body).toEqual(errorBody('TOO_MANY_REQUESTS'));
        // The oldest key (k-1, 20 s old) expires 1 ms after 24 h - 20 s: rounded up to whole seconds.
        expect(refused.headers['retry-after']).toBe(String(24 * 60 * 60 - 20 + 1));
        // Nothing was stored for k-3: it is refused again, not replayed.
        expect((await upload(limited.keys.managerA, 'k-3')).status).toBe(429);

        const replay = await upload(limited.keys.managerA, 'k-1');
        expect([replay.status, replay.headers['idempotent-replayed']]).toEqual([200, 'true']);
        expect((await upload(limited.keys.managerA)).status).toBe(200);
        expect((await upload(limited.keys.managerB, 'k-3')).status).toBe(200);

        limited.clock.advance(24 * 60 * 60 * 1000 - 20_000 + 1);
        expect((await upload(limited.keys.managerA, 'k-3')).status).toBe(200);
        expect(limited.logged).toEqual([]);
      } finally {
        await limited.close();
      }
    });

    test('a kit route never replays a host route answer recorded under its scope: 500, the body not sent', async () => {
      const body = { filenames: ['host-answer.pdf'] };
      const owner = `manager:${h.principals.managerA.managerId}`;
      const scope = `${owner} POST /manager/v1/uploads/request-batch-upload []`;
      const claimed = (
        await h.kit.idempotency.claim({ scope, owner, key: 'host-answer-key', body })
      )._unsafeUnwrap();
      if (claimed.type !== 'Claimed') throw new Error('expected a claim');
      (
        await h.kit.idempotency.complete(claimed.ref, {
          kind: 'response',
          status: 200,
          body: { hostAnswer: true },
        })
      )._unsafeUnwrap();
      const logged = h.logged.length;
      const replayed = await h.api
        .post('/manager/v1/uploads/request-batch-upload')
        .set('SERVICE_API_KEY', h.keys.managerA)
        .set('Idempotency-Key', 'host-answer-key')
        .send(body);
      expect([replayed.status, replayed.headers['idempotent-replayed'], replayed.body.code]).toEqual([
        500,
        undefined,
        'INTERNAL',
      ]);
      expect(h.logged.length).toBe(logged + 1);
    });

    test('a route without its own transaction (request-batch-upload) is recorded after it answers', async () => {
      const key = randomUUID();
      const send = () =>
        h.api
          .post('/manager/v1/uploads/request-batch-upload')
          .set('SERVICE_API_KEY', h.keys.managerA)
          .set('Idempotency-Key', key)
          .send({ filenames: ['replayed.pdf'] });
      const first = await send();
      h.clock.advance(1000);
      const second = await send();
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.body).toEqual(first.body);
    });

    test('business refusals are recorded: 404 and 409 INVALID_STATUS replay', async () => {
      const unknown = randomUUID();
      const key = randomUUID();
      const approveUnknown = () =>
        h.api
          .post(`/compliance/v1/clients/${unknown}/approve`)
          .set('SERVICE_API_KEY', h.keys.compliance)
          .set('Idempotency-Key', key);
      const notFound = await approveUnknown();
      expect(notFound.status).toBe(404);
      const notFoundAgain = await approveUnknown();
      expect(notFoundAgain.status).toBe(404);
      expect(notFoundAgain.headers['idempotent-replayed']).toBe('true');

      const client = await createIndividual(h, h.keys.managerA);
      const signKey = randomUUID();
      const sign = () =>
        h.api
          .post(`/compliance/v1/clients/${client.id}/terms-signed`)
          .set('SERVICE_API_KEY', h.keys.compliance)
          .set('Idempotency-Key', signKey);
      const refused = await sign();
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('INVALID_STATUS');
      const refusedAgain = await sign();
      expect(refusedAgain.status).toBe(409);
      expect(refusedAgain.headers['idempotent-replayed']).toBe('true');
      expect(refusedAgain.body).toEqual(refused.body);
    });

    test('DELETE and compliance transitions replay their 200', async () => {
      const client = await createIndividual(h, h.keys.managerA);
      const approveKey = randomUUID();
      const approve = () =>
        h.api
          .post(`/compliance/v1/clients/${client.id}/approve`)
          .set('SERVICE_API_KEY', h.keys.compliance)
          .set('Idempotency-Key', approveKey);
      const approved = await approve();
      const approvedAgain = await approve();
      expect([approved.status, approvedAgain.status]).toEqual([200, 200]);
      expect(approvedAgain.headers['idempotent-replayed']).toBe('true');

      const deleteKey = randomUUID();
      const remove = () =>
        h.api
          .delete(`/manager/v1/clients/${client.id}`)
          .set('SERVICE_API_KEY', h.keys.managerA)
          .set('Idempotency-Key', deleteKey);
      const deleted = await remove();
      const deletedAgain = await remove();
      expect([deleted.status, deletedAgain.status]).toEqual([200, 200]);
      expect(deletedAgain.headers['idempotent-replayed']).toBe('true');
      expect(deletedAgain.body).toEqual(deleted.body);
    });

    test('a quoted structured-field string is the same key unquoted', async () => {
      const key = `k-${randomUUID()}`;
      const send = (value: string) =>
        h.api
          .post('/manager/v1/uploads/request-batch-upload')
          .set('SERVICE_API_KEY', h.keys.managerA)
          .set('Idempotency-Key', value)
          .send({ filenames: ['quoted.pdf'] });
      const first = await send(`"${key}"`);
      const second = await send(key);
      expect(first.status).toBe(200);
      expect(second.headers['idempotent-replayed']).toBe('true');
    });

    test.each([
      ['empty', ''],
      ['longer than 255', 'k'.repeat(256)],
      ['a list', 'a, b'],
      ['with a space', 'two words'],
      ['a broken quoted string', '"open'],
    ])('an Idempotency-Key %s → 400 VALIDATION_FAILED', async (_, value) => {
      const response = await h.api
        .post('/manager/v1/uploads/request-batch-upload')
        .set('SERVICE_API_KEY', h.keys.managerA)
        .set('Idempotency-Key', value)
        .send({ filenames: ['a.pdf'] });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(errorBody('VALIDATION_FAILED', /Idempotency-Key/));
    });

    test('a repeated Idempotency-Key header → 400', async () => {
      const response = await h.api
        .post('/manager/v1/uploads/request-batch-upload')
        .set('SERVICE_API_KEY', h.keys.managerA)
        .set('Idempotency-Key', ['same', 'same'] as unknown as string) // Node sends an array as two header lines
        .send({ filenames: ['a.pdf'] });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(errorBody('VALIDATION_FAILED', /Idempotency-Key/));
    });

    test('exactly 255 visible characters are accepted', async () => {
      const response = await h.api
        .post('/manager/v1/uploads/request-batch-upload')
        .set('SERVICE_API_KEY', h.keys.managerA)
        .set('Idempotency-Key', `${randomUUID()}${'~'.repeat(255 - 36)}`)
        .send({ filenames: ['a.pdf'] });
      expect(response.status).toBe(200);
    });
  });
