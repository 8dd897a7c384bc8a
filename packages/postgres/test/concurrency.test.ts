import { randomUUID } from 'node:crypto';
import { creationEntryFor, storedClientFixture, transitionEntry } from '@onboarding-kit/contract-tests';
import { type InvalidStatus, invalidStatus, type StoredClient } from '@onboarding-kit/core/adapter';
import { errAsync, okAsync, ResultAsync } from 'neverthrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exited, nextLine, spawnTestProcess } from './child-process-runner.js';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';
import { rawSqlInspector } from './raw-sql-inspector.js';

let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase({ pool: { max: 12 } });
});
afterAll(() => database.close());

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const clientAwaitingResubmission = async (): Promise<StoredClient> => {
  const created = storedClientFixture({ managerId: randomUUID(), clientType: 'INDIVIDUAL' });
  const client: StoredClient = {
    ...created,
    status: 'RESUBMISSION_REQUIRED',
    onboardingResubmissionReason: 'Blurred passport',
  };
  (await database.adapters.clients.insert(client, creationEntryFor(client)))._unsafeUnwrap();
  return client;
};

describe('two resubmits racing on one client', () => {
  /** What the resubmit service does: lock the client, check its status, replace it. */
  const resubmit = (clientId: string, label: string) =>
    database.adapters.unitOfWork.transaction((stores) =>
      stores.clients.findForUpdate(clientId).andThen((current) => {
        if (current === null) return errAsync(invalidStatus(clientId, 'DELETED', 'RESUBMIT'));
        if (current.status !== 'RESUBMISSION_REQUIRED') {
          return errAsync<never, InvalidStatus>(invalidStatus(clientId, current.status, 'RESUBMIT'));
        }
        const at = new Date().toISOString();
        const next: StoredClient = {
          ...current,
          status: 'ONBOARDING_UNDER_REVIEW',
          onboardingResubmissionReason: null,
          bankAccounts: current.bankAccounts.map((account) => ({ ...account, id: randomUUID(), label })),
          updatedAt: at,
        };
        // Hold the lock a moment so that the other command surely arrives while it is held.
        return ResultAsync.fromSafePromise(pause(50))
          .andThen(() =>
            stores.clients.update(
              next,
              'RESUBMISSION_REQUIRED',
              transitionEntry('RESUBMISSION_REQUIRED', 'ONBOARDING_UNDER_REVIEW', at, 'manager:m'),
            ),
          )
          .andThen(() => okAsync(label));
      }),
    );

  it('lets exactly one win through findForUpdate; the other sees the new status (409 path)', async () => {
    const client = await clientAwaitingResubmission();
    const outcomes = await Promise.all([resubmit(client.id, 'first'), resubmit(client.id, 'second')]);
    const winners = outcomes.filter((outcome) => outcome.isOk());
    const losers = outcomes.filter((outcome) => outcome.isErr());
    expect(winners).toHaveLength(1);
    expect(losers.map((outcome) => outcome._unsafeUnwrapErr())).toEqual([
      invalidStatus(client.id, 'ONBOARDING_UNDER_REVIEW', 'RESUBMIT'),
    ]);
    const inspect = rawSqlInspector(database.pool, database.tables);
    const stored = await inspect.readClient(client.id);
    expect(stored?.bankAccounts.map((account) => account.label)).toEqual(
      client.bankAccounts.map(() => winners[0]?._unsafeUnwrap()),
    );
    expect((await inspect.readStatusHistory(client.id)).map((entry) => entry.to)).toEqual([
      'RESUBMISSION_REQUIRED',
      'ONBOARDING_UNDER_REVIEW',
    ]);
  });

  it('lets exactly one win even without the lock: the expectedStatus guard refuses the stale one', async () => {
    const client = await clientAwaitingResubmission();
    const at = new Date().toISOString();
    const next = {
      ...client,
      status: 'ONBOARDING_UNDER_REVIEW' as const,
      onboardingResubmissionReason: null,
    };
    const entry = transitionEntry('RESUBMISSION_REQUIRED', 'ONBOARDING_UNDER_REVIEW', at, 'manager:m');
    const outcomes = await Promise.all([
      database.adapters.clients.update(next, 'RESUBMISSION_REQUIRED', entry),
      database.adapters.clients.update(next, 'RESUBMISSION_REQUIRED', entry),
    ]);
    expect(outcomes.filter((outcome) => outcome.isOk())).toHaveLength(1);
    expect(
      outcomes.filter((outcome) => outcome.isErr()).map((outcome) => outcome._unsafeUnwrapErr()),
    ).toEqual([{ type: 'StaleClientState', clientId: client.id, expectedStatus: 'RESUBMISSION_REQUIRED' }]);
    const history = await rawSqlInspector(database.pool, database.tables).readStatusHistory(client.id);
    expect(history).toHaveLength(2);
  });
});

describe('idempotency across processes', () => {
  it('gives exactly one of 200 same-key claims from two Node processes the claim', async () => {
    const scope = `manager:${randomUUID()} POST /manager/v1/clients/individuals`;
    const children = [0, 1].map(() =>
      spawnTestProcess('claim-same-key', [
        database.connectionString,
        database.schema,
        scope,
        'same-key',
        '100',
      ]),
    );
    try {
      expect(await Promise.all(children.map(nextLine))).toEqual(['ready', 'ready']);
      const results = children.map(nextLine);
      for (const child of children) child.stdin.write('go\n');
      const tallies = (await Promise.all(results)).map((line) => JSON.parse(line) as Record<string, number>);
      const total = (name: string) => tallies.reduce((sum, tally) => sum + (tally[name] ?? 0), 0);
      expect(total('Claimed')).toBe(1);
      expect(total('InProgress')).toBe(199);
      const rows = await database.pool.query(
        `SELECT count(*)::int AS n FROM ${database.tables.idempotency} WHERE scope = $1`,
        [scope],
      );
      expect(rows.rows[0]?.n).toBe(1);
    } finally {
      for (const child of children) child.kill('SIGKILL');
      await Promise.all(children.map(exited));
    }
  }, 60_000);

  it('takes over the lock of a process killed mid-request once lockTtlMs has passed', async () => {
    const scope = `manager:${randomUUID()} POST /manager/v1/clients/individuals`;
    const child = spawnTestProcess('claim-and-hang', [
      database.connectionString,
      database.schema,
      scope,
      'crash-key',
    ]);
    try {
      expect(await nextLine(child)).toBe('Claimed');
    } finally {
      child.kill('SIGKILL');
      await exited(child);
    }
    // The store judges a lock's age by the clock the kit hands it (the request's `now`), as every
    // claim does: the retries say when they happen instead of waiting lockTtlMs of real time.
    const crashedAt = Date.now();
    const lockTtlMs = 2_000;
    const retry = (token: string, now: Date) =>
      database.adapters.idempotency.claim({
        scope,
        owner: scope.split(' ')[0] ?? scope,
        maxLiveRecordsPerOwner: null,
        key: 'crash-key',
        token,
        fingerprint: 'd'.repeat(64),
        now,
        lockTtlMs,
        recordTtlMs: 86_400_000,
      });
    // Right after the crash the lock is still young: the retry is told to wait.
    expect((await retry(randomUUID(), new Date(crashedAt)))._unsafeUnwrap()).toEqual({ type: 'InProgress' });
    // lockTtlMs later (and a margin), the lock is abandoned: the retry takes the key over.
    const later = new Date(crashedAt + lockTtlMs + 200);
    const token = randomUUID();
    expect((await retry(token, later))._unsafeUnwrap()).toEqual({ type: 'Claimed' });
    const outcome = { kind: 'response', status: 201, body: { ok: true } } as const;
    (
      await database.adapters.idempotency.complete({ scope, key: 'crash-key', token }, outcome, later)
    )._unsafeUnwrap();
    expect((await retry(randomUUID(), later))._unsafeUnwrap()).toEqual({ type: 'Replay', outcome });
  }, 30_000);
});

describe('purgeExpired', () => {
  it('deletes expired records in batches of batchSize statements and keeps the fresh ones', async () => {
    const scope = `purge:${randomUUID()}`;
    const claimAt = (key: string, now: Date) =>
      database.adapters.idempotency.claim({
        scope,
        owner: scope.split(' ')[0] ?? scope,
        maxLiveRecordsPerOwner: null,
        key,
        token: randomUUID(),
        fingerprint: 'e'.repeat(64),
        now,
        lockTtlMs: 60_000,
        recordTtlMs: 86_400_000,
      });
    // 1960: no other test writes records this old, so the purge below sees exactly these.
    for (let i = 0; i < 25; i += 1)
      (await claimAt(`old-${i}`, new Date(Date.UTC(1960, 0, 1, 0, i))))._unsafeUnwrap();
    for (let i = 0; i < 3; i += 1) (await claimAt(`fresh-${i}`, new Date()))._unsafeUnwrap();

    const before = database.queryCount();
    const purged = await database.adapters.idempotency.purgeExpired(new Date(Date.UTC(1961, 0, 1)), 10);
    expect(purged._unsafeUnwrap()).toBe(25);
    // 10 + 10 + 5: the short third batch tells the loop it is done.
    expect(database.queryCount() - before).toBe(3);
    const left = await database.pool.query(
      `SELECT idempotency_key FROM ${database.tables.idempotency} WHERE scope = $1 ORDER BY idempotency_key`,
      [scope],
    );
    expect(left.rows.map((row) => row.idempotency_key)).toEqual(['fresh-0', 'fresh-1', 'fresh-2']);
  });
});

describe('complete', () => {
  it('answers Err, never throws, for a response body that JSON cannot hold, and keeps the claim', async () => {
    const scope = `complete:${randomUUID()}`;
    const token = randomUUID();
    const request = {
      scope,
      owner: 'complete',
      maxLiveRecordsPerOwner: null,
      key: 'k',
      token,
      fingerprint: 'f'.repeat(64),
      now: new Date(),
      lockTtlMs: 60_000,
      recordTtlMs: 86_400_000,
    };
    (await database.adapters.idempotency.claim(request))._unsafeUnwrap();
    const outcome = await database.adapters.idempotency.complete(
      { scope, key: 'k', token },
      { kind: 'command', ok: true, value: { amount: 10n } },
      new Date(),
    );
    expect(outcome._unsafeUnwrapErr()).toMatchObject({ type: 'StorageUnavailable', store: 'postgres' });
    expect(
      (await database.adapters.idempotency.claim({ ...request, token: randomUUID() }))._unsafeUnwrap(),
    ).toEqual({
      type: 'InProgress',
    });
  });
});
