import { randomUUID } from 'node:crypto';
import {
  type IdempotencyClaimRef,
  type IdempotencyClaimRequest,
  type IdempotencyLockLost,
  type IdempotencyStore,
  REDACTED_FINGERPRINT,
  type RecordedOutcome,
} from '@onboarding-kit/core/adapter';
import { describe, expect, it } from 'vitest';
import { expectErr, expectOk } from './result-assertions.js';
import { openFixture, type Teardown } from './test-fixture.js';

export type IdempotencyRecordSnapshot = {
  readonly fingerprint: string;
  /** Null while the request is in progress. */
  readonly outcome: RecordedOutcome | null;
};

export type IdempotencyStoreInspector = {
  /** The record of scope + key as the backend holds it, read directly, or null. */
  readRecord(scope: string, key: string): Promise<IdempotencyRecordSnapshot | null>;
};

export type IdempotencyStoreContractFixture = Teardown & {
  readonly idempotency: IdempotencyStore;
  readonly inspect: IdempotencyStoreInspector;
};

export type IdempotencyStoreContractOptions = {
  readonly name: string;
  /**
   * Called once per test; scopes are random, so a shared backend works. The purge test writes
   * records dated 1975 and purges everything older than mid-1975: nothing else may write such dates.
   */
  readonly setup: () => Promise<IdempotencyStoreContractFixture>;
};

const lockTtlMs = 60_000;
const recordTtlMs = 86_400_000;
const fingerprintA = 'a'.repeat(64);
const fingerprintB = 'b'.repeat(64);

const outcome: RecordedOutcome = {
  kind: 'command',
  ok: true,
  value: {
    id: randomUUID(),
    name: 'Zoé “quoted” ✓',
    amount: 12.5,
    flags: [true, false],
    nothing: null,
    list: [],
  },
};

/** IdempotencyStore (core/src/ports/idempotency-store.ts, decisions §5). */
export const runIdempotencyStoreContract = ({ name, setup }: IdempotencyStoreContractOptions): void => {
  const t0 = new Date('2031-05-06T07:08:09.123Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);
  const claimRequest = (
    scope: string,
    overrides: Partial<Omit<IdempotencyClaimRequest, 'scope'>> = {},
  ): IdempotencyClaimRequest => ({
    scope,
    owner: scope.split(' ')[0] ?? scope,
    maxLiveRecordsPerOwner: null,
    key: 'key-1',
    token: randomUUID(),
    fingerprint: fingerprintA,
    now: t0,
    lockTtlMs,
    recordTtlMs,
    ...overrides,
  });
  const newScope = () => `manager:${randomUUID()} POST /manager/v1/clients/individuals`;

  describe(`IdempotencyStore contract: ${name}`, () => {
    it('claims a free key and records it as in progress', async () => {
      const { idempotency, inspect } = await openFixture(setup);
      const scope = newScope();
      expect(await expectOk(idempotency.claim(claimRequest(scope)))).toEqual({ type: 'Claimed' });
      expect(await inspect.readRecord(scope, 'key-1')).toEqual({ fingerprint: fingerprintA, outcome: null });
    });

    it('answers InProgress to the same key and fingerprint while the first holds it', async () => {
      const { idempotency } = await openFixture(setup);
      const scope = newScope();
      await expectOk(idempotency.claim(claimRequest(scope)));
      expect(await expectOk(idempotency.claim(claimRequest(scope, { now: at(1_000) })))).toEqual({
        type: 'InProgress',
      });
    });

    it('replays the exact stored outcome once completed', async () => {
      const { idempotency, inspect } = await openFixture(setup);
      const scope = newScope();
      const first = claimRequest(scope);
      await expectOk(idempotency.claim(first));
      await expectOk(idempotency.complete(first, outcome, at(500)));
      expect(await inspect.readRecord(scope, 'key-1')).toEqual({ fingerprint: fingerprintA, outcome });
      expect(await expectOk(idempotency.claim(claimRequest(scope, { now: at(1_000) })))).toEqual({
        type: 'Replay',
        outcome,
      });
    });

    it('redacts the records whose outcome names a client: the rewrite replaces the outcome, the marker the fingerprint', async () => {
      const { idempotency, inspect } = await openFixture(setup);
      const clientId = randomUUID();
      const scope = newScope();
      const holding = claimRequest(scope, { key: 'holds-the-client' });
      const other = claimRequest(scope, { key: 'another-client' });
      const running = claimRequest(scope, { key: 'in-progress' });
      for (const request of [holding, other, running]) await expectOk(idempotency.claim(request));
      const answer: RecordedOutcome = {
        kind: 'response',
        status: 201,
        body: { client: { id: clientId, name: 'Ada' } },
      };
      await expectOk(idempotency.complete(holding, answer, at(500)));
      await expectOk(idempotency.complete(other, outcome, at(500)));

      const seen: RecordedOutcome[] = [];
      const erased: RecordedOutcome = { kind: 'response', status: 201, body: '[redacted]' };
      await expectOk(
        idempotency.rewriteForClient(clientId, (stored) => {
          seen.push(stored);
          return erased;
        }),
      );
      expect(seen).toEqual([answer]);
      expect(await inspect.readRecord(scope, 'holds-the-client')).toEqual({
        fingerprint: REDACTED_FINGERPRINT,
        outcome: erased,
      });
      // Records of other clients keep their fingerprint and outcome.
      expect(await inspect.readRecord(scope, 'another-client')).toEqual({
        fingerprint: fingerprintA,
        outcome,
      });
      expect(await inspect.readRecord(scope, 'in-progress')).toEqual({
        fingerprint: fingerprintA,
        outcome: null,
      });
      // A retry of the rewritten key replays the rewrite, whatever its body: its command never runs
      // again, and the record no longer tells which body it was claimed with.
      for (const fingerprint of [fingerprintA, fingerprintB]) {
        expect(
          await expectOk(
            idempotency.claim(claimRequest(scope, { key: 'holds-the-client', fingerprint, now: at(1_000) })),
          ),
        ).toEqual({ type: 'Replay', outcome: erased });
      }
      // The other client's record still tells a reuse from a retry.
      expect(
        await expectOk(
          idempotency.claim(
            claimRequest(scope, { key: 'another-client', fingerprint: fingerprintB, now: at(1_000) }),
          ),
        ),
      ).toEqual({ type: 'KeyReused' });
    });

    it('redacts every record whose scope names the client, whatever its outcome, running or not, and case', async () => {
      const { idempotency, inspect } = await openFixture(setup);
      const clientId = randomUUID();
      const owner = `compliance:${randomUUID()}`;
      // The client's path as a route scope names it, in another case (ids come from paths as typed),
      // and the client itself as the caller.
      const onPath = `${owner} POST /compliance/v1/clients/:clientId/terms-signed [["clientId","${clientId.toUpperCase()}"]]`;
      const ofClient = `client:${clientId} POST /client/v1/uploads/request-batch-upload`;
      const redirect: RecordedOutcome = { kind: 'response', status: 303, body: { location: '/queue' } };
      const refusal: RecordedOutcome = {
        kind: 'command',
        ok: false,
        error: { type: 'ClientNotFound', clientId: clientId.toUpperCase() },
      };
      const answered = claimRequest(onPath, { key: 'redirect', owner });
      const refused = claimRequest(onPath, { key: 'refused', owner });
      const running = claimRequest(onPath, { key: 'running', owner });
      const abandoned = claimRequest(ofClient, { key: 'abandoned', owner: `client:${clientId}` });
      for (const request of [answered, refused, running, abandoned])
        await expectOk(idempotency.claim(request));
      await expectOk(idempotency.complete(answered, redirect, at(500)));
      await expectOk(idempotency.complete(refused, refusal, at(500)));

      const seen: RecordedOutcome[] = [];
      const rewrite = (stored: RecordedOutcome): RecordedOutcome => {
        seen.push(stored);
        return stored.kind === 'response' ? { ...stored, body: '[redacted]' } : stored;
      };
      await expectOk(idempotency.rewriteForClient(clientId, rewrite));
      expect(seen).toHaveLength(2);
      expect(seen).toEqual(expect.arrayContaining([redirect, refusal]));
      const redactedRedirect = { ...redirect, body: '[redacted]' };
      expect(await inspect.readRecord(onPath, 'redirect')).toEqual({
        fingerprint: REDACTED_FINGERPRINT,
        outcome: redactedRedirect,
      });
      expect(await inspect.readRecord(onPath, 'refused')).toEqual({
        fingerprint: REDACTED_FINGERPRINT,
        outcome: refusal,
      });
      for (const [scope, key] of [
        [onPath, 'running'],
        [ofClient, 'abandoned'],
      ] as const) {
        expect(await inspect.readRecord(scope, key)).toEqual({
          fingerprint: REDACTED_FINGERPRINT,
          outcome: null,
        });
      }
      // A second run (a rerun of the redaction) finds the same records and leaves them so.
      await expectOk(idempotency.rewriteForClient(clientId, rewrite));
      expect(await inspect.readRecord(onPath, 'refused')).toEqual({
        fingerprint: REDACTED_FINGERPRINT,
        outcome: refusal,
      });

      // Any body replays the rewritten answers.
      const retry = (request: IdempotencyClaimRequest, ms: number) =>
        expectOk(
          idempotency.claim({ ...request, token: randomUUID(), fingerprint: fingerprintB, now: at(ms) }),
        );
      expect(await retry(answered, 1_000)).toEqual({ type: 'Replay', outcome: redactedRedirect });
      expect(await retry(refused, 1_000)).toEqual({ type: 'Replay', outcome: refusal });
      // A running holder keeps its claim: another body waits, and the holder still completes.
      expect(await retry(running, 1_000)).toEqual({ type: 'InProgress' });
      await expectOk(idempotency.complete(running, redirect, at(1_500)));
      expect(await retry(running, 2_000)).toEqual({ type: 'Replay', outcome: redirect });
      // An abandoned one is taken over by the next request, whatever its body.
      expect(await retry(abandoned, lockTtlMs + 1)).toEqual({ type: 'Claimed' });
      expect(await inspect.readRecord(ofClient, 'abandoned')).toEqual({
        fingerprint: fingerprintB,
        outcome: null,
      });
    });

    it('answers KeyReused to another fingerprint and leaves the record unchanged', async () => {
      const { idempotency, inspect } = await openFixture(setup);
      const completedScope = newScope();
      const first = claimRequest(completedScope);
      await expectOk(idempotency.claim(first));
      await expectOk(idempotency.complete(first, outcome, at(500)));
      expect(
        await expectOk(
          idempotency.claim(claimRequest(completedScope, { fingerprint: fingerprintB, now: at(1_000) })),
        ),
      ).toEqual({ type: 'KeyReused' });
      expect(await inspect.readRecord(completedScope, 'key-1')).toEqual({
        fingerprint: fingerprintA,
        outcome,
      });

      // Also while the first request still runs: the fingerprint is checked before the lock.
      const runningScope = newScope();
      const running = claimRequest(runningScope);
      await expectOk(idempotency.claim(running));
      expect(
        await expectOk(
          idempotency.claim(claimRequest(runningScope, { fingerprint: fingerprintB, now: at(1_000) })),
        ),
      ).toEqual({ type: 'KeyReused' });
      expect(await inspect.readRecord(runningScope, 'key-1')).toEqual({
        fingerprint: fingerprintA,
        outcome: null,
      });
      await expectOk(idempotency.complete(running, outcome, at(2_000)));
    });

    it('frees a released key for a new claim, and ignores a release by another token', async () => {
      const { idempotency, inspect } = await openFixture(setup);
      const scope = newScope();
      const first = claimRequest(scope);
      await expectOk(idempotency.claim(first));
      await expectOk(idempotency.release({ scope, key: 'key-1', token: randomUUID() }));
      expect(await expectOk(idempotency.claim(claimRequest(scope, { now: at(100) })))).toEqual({
        type: 'InProgress',
      });

      await expectOk(idempotency.release(first));
      expect(await inspect.readRecord(scope, 'key-1')).toBeNull();
      const retry = claimRequest(scope, { fingerprint: fingerprintB, now: at(200) });
      expect(await expectOk(idempotency.claim(retry))).toEqual({ type: 'Claimed' });
      await expectOk(idempotency.complete(retry, outcome, at(300)));
      expect(await inspect.readRecord(scope, 'key-1')).toEqual({ fingerprint: fingerprintB, outcome });
      // A completed record is no claim to release: it stays for its replays.
      await expectOk(idempotency.release(retry));
      expect(await inspect.readRecord(scope, 'key-1')).toEqual({ fingerprint: fingerprintB, outcome });
    });

    it('lets a claim take over a lock older than lockTtlMs; the old holder then loses it', async () => {
      const { idempotency, inspect } = await openFixture(setup);
      const scope = newScope();
      const crashed = claimRequest(scope);
      await expectOk(idempotency.claim(crashed));
      expect(await expectOk(idempotency.claim(claimRequest(scope, { now: at(lockTtlMs - 1_000) })))).toEqual({
        type: 'InProgress',
      });

      const takeover = claimRequest(scope, { now: at(lockTtlMs + 1_000) });
      expect(await expectOk(idempotency.claim(takeover))).toEqual({ type: 'Claimed' });
      // The new lock is fresh: it is not taken over again right away.
      expect(await expectOk(idempotency.claim(claimRequest(scope, { now: at(lockTtlMs + 2_000) })))).toEqual({
        type: 'InProgress',
      });

      const lost = await expectErr(
        idempotency.complete(crashed, { kind: 'response', status: 500, body: null }, at(lockTtlMs + 3_000)),
      );
      expect(lost).toEqual({
        type: 'IdempotencyLockLost',
        scope,
        key: 'key-1',
      } satisfies IdempotencyLockLost);
      await expectOk(idempotency.release(crashed));
      expect(await inspect.readRecord(scope, 'key-1')).toEqual({ fingerprint: fingerprintA, outcome: null });

      await expectOk(idempotency.complete(takeover, outcome, at(lockTtlMs + 4_000)));
      expect(await expectOk(idempotency.claim(claimRequest(scope, { now: at(lockTtlMs + 5_000) })))).toEqual({
        type: 'Replay',
        outcome,
      });
    });

    it('answers KeyReused to another request even when the first holder’s lock was abandoned', async () => {
      const { idempotency, inspect } = await openFixture(setup);
      const scope = newScope();
      await expectOk(idempotency.claim(claimRequest(scope)));
      const other = claimRequest(scope, { fingerprint: fingerprintB, now: at(lockTtlMs + 1_000) });
      expect(await expectOk(idempotency.claim(other))).toEqual({ type: 'KeyReused' });
      expect(await inspect.readRecord(scope, 'key-1')).toEqual({ fingerprint: fingerprintA, outcome: null });
    });

    it('expires strictly after the TTLs: at exactly lockTtlMs and recordTtlMs nothing is taken over', async () => {
      const { idempotency } = await openFixture(setup);
      const locked = newScope();
      await expectOk(idempotency.claim(claimRequest(locked)));
      expect(await expectOk(idempotency.claim(claimRequest(locked, { now: at(lockTtlMs) })))).toEqual({
        type: 'InProgress',
      });
      expect(await expectOk(idempotency.claim(claimRequest(locked, { now: at(lockTtlMs + 1) })))).toEqual({
        type: 'Claimed',
      });

      const completed = newScope();
      const first = claimRequest(completed);
      await expectOk(idempotency.claim(first));
      await expectOk(idempotency.complete(first, outcome, t0));
      const atTtl = claimRequest(completed, { fingerprint: fingerprintB, now: at(recordTtlMs) });
      expect(await expectOk(idempotency.claim(atTtl))).toEqual({ type: 'KeyReused' });
      const afterTtl = claimRequest(completed, { fingerprint: fingerprintB, now: at(recordTtlMs + 1) });
      expect(await expectOk(idempotency.claim(afterTtl))).toEqual({ type: 'Claimed' });
    });

    it('refuses to complete a claim that was released', async () => {
      const { idempotency } = await openFixture(setup);
      const scope = newScope();
      const first = claimRequest(scope);
      await expectOk(idempotency.claim(first));
      await expectOk(idempotency.release(first));
      const lost = await expectErr(idempotency.complete(first, outcome, at(100)));
      expect(lost).toEqual({ type: 'IdempotencyLockLost', scope, key: 'key-1' });
    });

    it('treats a record older than recordTtlMs as absent', async () => {
      const { idempotency, inspect } = await openFixture(setup);
      const scope = newScope();
      const first = claimRequest(scope);
      await expectOk(idempotency.claim(first));
      await expectOk(idempotency.complete(first, outcome, at(1_000)));
      expect(
        await expectOk(idempotency.claim(claimRequest(scope, { now: at(recordTtlMs - 1_000) }))),
      ).toEqual({
        type: 'Replay',
        outcome,
      });

      const later = claimRequest(scope, { fingerprint: fingerprintB, now: at(recordTtlMs + 1_000) });
      expect(await expectOk(idempotency.claim(later))).toEqual({ type: 'Claimed' });
      const second: RecordedOutcome = { kind: 'response', status: 404, body: { code: 'CLIENT_NOT_FOUND' } };
      await expectOk(idempotency.complete(later, second, at(recordTtlMs + 2_000)));
      expect(await inspect.readRecord(scope, 'key-1')).toEqual({
        fingerprint: fingerprintB,
        outcome: second,
      });
    });

    it('keeps the same key in different scopes independent', async () => {
      const { idempotency, inspect } = await openFixture(setup);
      const scopeA = newScope();
      const scopeB = newScope();
      const inA = claimRequest(scopeA);
      expect(await expectOk(idempotency.claim(inA))).toEqual({ type: 'Claimed' });
      await expectOk(idempotency.complete(inA, outcome, at(10)));
      const inB = claimRequest(scopeB, { fingerprint: fingerprintB });
      expect(await expectOk(idempotency.claim(inB))).toEqual({ type: 'Claimed' });
      expect(await inspect.readRecord(scopeA, 'key-1')).toEqual({ fingerprint: fingerprintA, outcome });
      expect(await inspect.readRecord(scopeB, 'key-1')).toEqual({
        fingerprint: fingerprintB,
        outcome: null,
      });
    });

    it('purges exactly the records created before the cutoff, in batches, and counts them', async () => {
      const { idempotency, inspect } = await openFixture(setup);
      const scope = newScope();
      const old = Array.from({ length: 7 }, (_, i) => ({
        ...claimRequest(scope, { key: `old-${i}`, now: new Date(Date.UTC(1975, 0, 1 + i)) }),
      }));
      const fresh = Array.from({ length: 3 }, (_, i) => ({
        ...claimRequest(scope, { key: `fresh-${i}`, now: new Date(Date.UTC(1975, 11, 1 + i)) }),
      }));
      // Claimed at the cutoff itself: not before it, so it stays.
      const atCutoff = claimRequest(scope, { key: 'at-cutoff', now: new Date(Date.UTC(1975, 6, 1)) });
      for (const [i, request] of [...old, ...fresh, atCutoff].entries()) {
        await expectOk(idempotency.claim(request));
        // Completed and in-progress records alike are purged by age.
        if (i % 2 === 0) await expectOk(idempotency.complete(request, outcome, request.now));
      }

      expect(await expectOk(idempotency.purgeExpired(new Date(Date.UTC(1975, 6, 1)), 3))).toBe(7);
      for (const request of old) expect(await inspect.readRecord(scope, request.key)).toBeNull();
      for (const request of [...fresh, atCutoff])
        expect(await inspect.readRecord(scope, request.key)).not.toBeNull();
      expect(await expectOk(idempotency.purgeExpired(new Date(Date.UTC(1975, 6, 1)), 3))).toBe(0);
    });

    it("refuses a new key beyond the owner's quota of live records, never a replay, another owner or after expiry", async () => {
      const { idempotency } = await openFixture(setup);
      const owner = `manager:${randomUUID()}`;
      const quota = { maxLiveRecordsPerOwner: 3 };
      const createScope = `${owner} POST /manager/v1/clients/individuals`;
      const deleteScope = `${owner} DELETE /manager/v1/clients/:clientId`;
      // Three live records in two scopes of one owner, one second apart.
      const held = [
        claimRequest(createScope, { ...quota, key: 'k-1', now: at(0) }),
        claimRequest(deleteScope, { ...quota, key: 'k-2', now: at(1000) }),
        claimRequest(createScope, { ...quota, key: 'k-3', now: at(2000) }),
      ];
      for (const request of held)
        expect(await expectOk(idempotency.claim(request))).toEqual({ type: 'Claimed' });
      await expectOk(idempotency.complete(held[0] as IdempotencyClaimRef, outcome, at(0)));

      const later = at(5000);
      expect(
        await expectOk(idempotency.claim(claimRequest(createScope, { ...quota, key: 'k-4', now: later }))),
      ).toEqual({ type: 'QuotaExceeded', retryAfterMs: recordTtlMs - 5000 + 1 });
      // What the owner already holds still answers: a replay and an in-progress key.
      expect(
        await expectOk(idempotency.claim(claimRequest(createScope, { ...quota, key: 'k-1', now: later }))),
      ).toEqual({ type: 'Replay', outcome });
      expect(
        await expectOk(idempotency.claim(claimRequest(deleteScope, { ...quota, key: 'k-2', now: later }))),
      ).toEqual({ type: 'InProgress' });
      // Another owner has its own quota; no bound is no bound.
      const otherScope = `manager:${randomUUID()} POST /manager/v1/clients/individuals`;
      expect(
        await expectOk(idempotency.claim(claimRequest(otherScope, { ...quota, key: 'k-4', now: later }))),
      ).toEqual({ type: 'Claimed' });
      expect(
        await expectOk(
          idempotency.claim(
            claimRequest(createScope, { maxLiveRecordsPerOwner: null, key: 'k-5', now: later }),
          ),
        ),
      ).toEqual({ type: 'Claimed' });
      // Once the oldest record expires, its place is free again (k-5 was added without a bound).
      const afterOldestExpired = at(recordTtlMs + 1);
      expect(
        await expectOk(
          idempotency.claim(claimRequest(createScope, { ...quota, key: 'k-6', now: afterOldestExpired })),
        ),
      ).toEqual({ type: 'QuotaExceeded', retryAfterMs: 1000 });
      const afterTwoExpired = at(recordTtlMs + 1001);
      expect(
        await expectOk(
          idempotency.claim(claimRequest(createScope, { ...quota, key: 'k-6', now: afterTwoExpired })),
        ),
      ).toEqual({ type: 'Claimed' });
    });

    it('renews a held lock: the lock TTL counts from the last renewal, and only the holder may renew', async () => {
      const { idempotency } = await openFixture(setup);
      const scope = newScope();
      const first = claimRequest(scope);
      expect(await expectOk(idempotency.claim(first))).toEqual({ type: 'Claimed' });
      // Renewed at 50 s: at 100 s (over the 60 s TTL from the claim) the lock still holds.
      await expectOk(idempotency.renew(first, at(50_000)));
      expect(await expectOk(idempotency.claim(claimRequest(scope, { now: at(100_000) })))).toEqual({
        type: 'InProgress',
      });
      // Not renewed since 50 s: at 110 001 ms it is abandoned and taken over.
      const takeover = claimRequest(scope, { now: at(110_001) });
      expect(await expectOk(idempotency.claim(takeover))).toEqual({ type: 'Claimed' });
      // The first holder has lost it: its renewal is refused and changes nothing.
      expect(await expectErr(idempotency.renew(first, at(110_002)))).toMatchObject({
        type: 'IdempotencyLockLost',
      });
      await expectOk(idempotency.complete(takeover, outcome, at(110_003)));
      // A completed record has no lock to renew.
      expect(await expectErr(idempotency.renew(takeover, at(110_004)))).toMatchObject({
        type: 'IdempotencyLockLost',
      });
      expect(await expectOk(idempotency.claim(claimRequest(scope, { now: at(110_005) })))).toEqual({
        type: 'Replay',
        outcome,
      });
    });

    it('gives exactly one of 50 concurrent claims of one key the claim', async () => {
      const { idempotency } = await openFixture(setup);
      const scope = newScope();
      const outcomes = await Promise.all(
        Array.from({ length: 50 }, () => expectOk(idempotency.claim(claimRequest(scope)))),
      );
      expect(outcomes.filter((o) => o.type === 'Claimed')).toHaveLength(1);
      expect(outcomes.filter((o) => o.type === 'InProgress')).toHaveLength(49);
    });
  });
};
