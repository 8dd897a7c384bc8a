import {
  type Client,
  type CompliancePrincipal,
  clientVersion,
  type DomainError,
  exampleIndividualPayload,
} from '@onboarding-kit/core';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import type { Result } from 'neverthrow';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createPostgresAdapters } from '../src/postgres-adapters.js';
import { kitOnPostgres } from './kit-on-postgres.js';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';
import { rawSqlInspector } from './raw-sql-inspector.js';

/**
 * A reviewer's approval racing a resubmission on PostgreSQL, from two processes' pools: the kit of
 * the manager and of another reviewer on one pool, the kit of the approving reviewer on another.
 * The approval carries the version of the client its reviewer saw before the resubmission
 * (`expectedVersion`), compared under the client's lock in the approval's own transaction. Only
 * two outcomes are consistent: the approval commits first (the data approved is the data seen; the
 * resubmission is then refused), or the resubmission does and the approval is ClientChanged.
 * Never the third: an approval of data its reviewer did not see.
 */
let database: MigratedDatabase;
let secondPool: pg.Pool;
beforeAll(async () => {
  database = await openMigratedDatabase({ pool: { max: 4 } });
  secondPool = new pg.Pool({ connectionString: database.connectionString, max: 4 });
});
afterAll(async () => {
  await secondPool?.end();
  await database?.close();
});

const alice: CompliancePrincipal = { kind: 'compliance', complianceId: 'alice' };
const bob: CompliancePrincipal = { kind: 'compliance', complianceId: 'bob' };

/** Lets `turns` rounds of the event loop pass (I/O included), no real time waited for. */
const turns = async (count: number) => {
  for (let turn = 0; turn < count; turn += 1) await new Promise<void>((resolve) => setImmediate(resolve));
};

const ROUNDS = 36;

test(`an approval with the version seen before a resubmission, at the same moment, ${ROUNDS} times: only consistent outcomes`, async () => {
  const memory = createMemoryAdapters();
  const managerSide = kitOnPostgres(database.adapters, {}, memory);
  const { manager, upload } = managerSide;
  const reviewerSide = kitOnPostgres(
    createPostgresAdapters({ pool: secondPool, schema: database.schema }),
    {},
    memory,
  ).kit;
  const inspect = rawSqlInspector(database.pool, database.tables);
  const outcomes = { approvedAsSeen: 0, refusedAsChanged: 0 };

  for (let round = 0; round < ROUNDS; round += 1) {
    upload(`passport-${round}.pdf`);
    const created = (
      await managerSide.kit.clients.createIndividual(
        manager,
        exampleIndividualPayload({ idDocuments: [`passport-${round}.pdf`] }),
      )
    )._unsafeUnwrap();
    const seen = (await reviewerSide.review.get(alice, created.id))._unsafeUnwrap();
    upload(`passport-${round}-again.pdf`);
    const payload = exampleIndividualPayload({ idDocuments: [`passport-${round}-again.pdf`] });

    // Bob asks for a resubmission and the manager resubmits other data, on the first pool...
    let asked: () => void = () => undefined;
    const askedPromise = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const resubmission = (async () => {
      const request = await managerSide.kit.compliance.requestResubmission(bob, created.id, {
        reason: 'Another passport',
      });
      asked();
      if (request.isErr()) return { request, resubmit: undefined };
      const resubmit = await managerSide.kit.clients.resubmitIndividual(manager, created.id, {
        ...payload,
        profile: { ...payload.profile, lastName: `Other-${round}` },
      });
      return { request, resubmit };
    })();
    // ...while alice approves what she saw on the second: at once, a few turns later, or once bob's
    // request is in (then racing the manager's resubmission).
    const approval = (async (): Promise<Result<Client, DomainError>> => {
      if (round % 3 === 1) await askedPromise;
      else if (round % 3 === 2) await turns(round);
      return reviewerSide.compliance.approve(alice, created.id, { expectedVersion: clientVersion(seen) });
    })();
    const [raced, approved] = await Promise.all([resubmission, approval]);

    const stored = await inspect.readClient(created.id);
    const history = (await inspect.readStatusHistory(created.id)).map((entry) => entry.to);
    const audit = (await reviewerSide.audit.list(alice, created.id, { limit: 100 }))
      ._unsafeUnwrap()
      .data.map((entry) => entry.action);
    if (approved.isOk()) {
      outcomes.approvedAsSeen += 1;
      // What was approved is what alice saw, and nothing came between.
      expect(approved.value.individualProfile).toEqual(seen.individualProfile);
      expect(stored?.status).toBe('WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE');
      expect(stored?.individualProfile).toEqual(seen.individualProfile);
      expect(raced.request._unsafeUnwrapErr().type).toBe('InvalidStatus');
      expect(raced.resubmit).toBeUndefined();
      expect(history).toEqual(['ONBOARDING_UNDER_REVIEW', 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE']);
      expect(audit).toEqual(['create', 'approve']);
    } else {
      outcomes.refusedAsChanged += 1;
      expect(approved.error).toEqual({ type: 'ClientChanged', clientId: created.id });
      expect(raced.request.isOk()).toBe(true);
      // The resubmission, refused only if alice's approval had been first (it was not).
      expect(raced.resubmit?.isOk()).toBe(true);
      expect(stored?.status).toBe('ONBOARDING_UNDER_REVIEW');
      expect(stored?.individualProfile?.lastName).toBe(`Other-${round}`);
      expect(history).toEqual([
        'ONBOARDING_UNDER_REVIEW',
        'RESUBMISSION_REQUIRED',
        'ONBOARDING_UNDER_REVIEW',
      ]);
      expect(audit).toEqual(['create', 'request-resubmission', 'resubmit']);
    }
  }
  expect(outcomes.approvedAsSeen + outcomes.refusedAsChanged).toBe(ROUNDS);
  // Every round awaiting bob's request ends refused; the others end either way.
  expect(outcomes.refusedAsChanged).toBeGreaterThanOrEqual(ROUNDS / 3);
  console.info(`approval vs resubmission on PostgreSQL: ${JSON.stringify(outcomes)}`);
});

test('one version whichever way the client is read: the review queue, the read, the command under its lock', async () => {
  const { kit, manager, upload } = kitOnPostgres(database.adapters);
  upload('passport.pdf');
  const created = (
    await kit.clients.createIndividual(manager, exampleIndividualPayload({ idDocuments: ['passport.pdf'] }))
  )._unsafeUnwrap();
  (await kit.review.assign(bob, created.id))._unsafeUnwrap();
  const read = (await kit.review.get(alice, created.id))._unsafeUnwrap();
  const managerRead = (await kit.clients.get(manager, created.id))._unsafeUnwrap();
  const queued = (await kit.review.queue(alice, { limit: 100 }))
    ._unsafeUnwrap()
    .data.find((client) => client.id === created.id);
  expect(queued).toBeDefined();
  // The console's queue rows and client page, and a manager's GET, give the version the command sees.
  expect(clientVersion(queued as Client)).toBe(clientVersion(read));
  expect(clientVersion(managerRead)).toBe(clientVersion(read));
  const approved = await kit.compliance.approve(alice, created.id, { expectedVersion: clientVersion(read) });
  expect(approved._unsafeUnwrap().status).toBe('WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE');
});
