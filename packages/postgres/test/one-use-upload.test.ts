import { randomUUID } from 'node:crypto';
import { createControllableClock, exampleIndividualPayload } from '@onboarding-kit/core';
import type { DocumentStorage } from '@onboarding-kit/core/adapter';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import { ResultAsync } from 'neverthrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitOnPostgres } from './kit-on-postgres.js';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';

/**
 * One upload is used by at most one command, on PostgreSQL: parallel commands naming one uploaded
 * file make one client and one permanent copy; the others are refused at the field, copying nothing.
 */
let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase({ pool: { max: 20 } });
});
afterAll(() => database.close());

const compliance = { kind: 'compliance', complianceId: 'compliance-1' } as const;
/**
 * The answers a losing request may get: the file is used by another request (it read the upload
 * before the winner removed it), or it is no longer in temporary storage (it read it after). The
 * order of parallel requests is the pool's and the scheduler's, not the test's.
 */
const refusals = (filename: string) => [
  {
    type: 'ValidationFailed',
    reason: 'Some documents are used by another request',
    parameterErrors: {
      'profile.idDocuments[0]': [
        `File "${filename}" is used by another request: upload it again to use it here`,
      ],
    },
  },
  {
    type: 'ValidationFailed',
    reason: 'Some documents cannot be used',
    parameterErrors: {
      'profile.idDocuments[0]': [`File "${filename}" is not in your temporary storage: upload it first`],
    },
  },
];

/**
 * The kit on the postgres adapters (`kitOnPostgres`) on a controllable clock, documents in memory
 * (read directly through `files`), through `storage` when given.
 */
const kitOnControllableClock = (
  storage: (healthy: DocumentStorage) => DocumentStorage = (healthy) => healthy,
) => {
  const clock = createControllableClock(new Date());
  const memory = createMemoryAdapters({ clock });
  const {
    kit,
    manager,
    upload: uploadBytes,
  } = kitOnPostgres(database.adapters, { documentStorage: storage(memory.documentStorage), clock }, memory);
  const upload = (filename: string) => uploadBytes(filename, new Uint8Array(64).fill(3));
  const countOf = async (table: string) =>
    (
      await database.pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE manager_id = $1`, [
        manager.managerId,
      ])
    ).rows[0]?.n;
  return { kit, clock, manager, upload, files: memory.testing, countOf };
};

const tally = (outcomes: readonly { isOk(): boolean }[]) =>
  outcomes.filter((outcome) => outcome.isOk()).length;

describe('one upload, many parallel commands (PostgreSQL)', () => {
  it('20 parallel creates naming one file: one client, 19 refusals at the field, one copy, one row', async () => {
    const { kit, manager, upload, files, countOf } = kitOnControllableClock();
    upload('passport.pdf');
    const payload = exampleIndividualPayload({ idDocuments: ['passport.pdf'] });
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => kit.clients.createIndividual(manager, payload)),
    );
    const created = tally(outcomes);
    console.log(`postgres, 20 parallel creates: ${created} created, ${20 - created} refused`);
    expect(created).toBe(1);
    for (const outcome of outcomes) {
      if (outcome.isErr()) expect(refusals('passport.pdf')).toContainEqual(outcome.error);
    }
    expect(files.listDocumentKeys()).toHaveLength(1);
    expect(await countOf(database.tables.clients)).toBe(1);
    expect(await countOf(database.tables.documents)).toBe(1);
  });

  it('20 parallel resubmissions of 20 clients naming one file: one resubmitted, one copy', async () => {
    const { kit, manager, upload, files, countOf } = kitOnControllableClock();
    const clientIds: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      upload(`passport-${i}.pdf`);
      const client = (
        await kit.clients.createIndividual(
          manager,
          exampleIndividualPayload({ idDocuments: [`passport-${i}.pdf`] }),
        )
      )._unsafeUnwrap();
      (
        await kit.compliance.requestResubmission(compliance, client.id, { reason: 'Blurred' })
      )._unsafeUnwrap();
      clientIds.push(client.id);
    }
    upload('new-passport.pdf');
    const payload = exampleIndividualPayload({ idDocuments: ['new-passport.pdf'] });
    const outcomes = await Promise.all(
      clientIds.map((clientId) => kit.clients.resubmitIndividual(manager, clientId, payload)),
    );
    const resubmitted = tally(outcomes);
    console.log(
      `postgres, 20 parallel resubmissions: ${resubmitted} resubmitted, ${20 - resubmitted} refused`,
    );
    expect(resubmitted).toBe(1);
    for (const outcome of outcomes) {
      if (outcome.isErr()) expect(refusals('new-passport.pdf')).toContainEqual(outcome.error);
    }
    expect(files.listDocumentKeys()).toHaveLength(21);
    expect(await countOf(database.tables.documents)).toBe(21);
  });

  it('a holder slower than its claim: the upload still makes one document, the late commit is refused', async () => {
    let release: () => void = () => undefined;
    let stalled: () => void = () => undefined;
    const stalledBeforeCommit = new Promise<void>((resolve) => {
      stalled = resolve;
    });
    let holdNext = true;
    const { kit, clock, manager, upload, files, countOf } = kitOnControllableClock((healthy) => ({
      ...healthy,
      copyToPermanent: (items) => {
        if (!holdNext) return healthy.copyToPermanent(items);
        holdNext = false;
        const resumed = new Promise<void>((resolve) => {
          release = resolve;
        });
        // It copied, then stalls before its commit.
        return healthy.copyToPermanent(items).andThen(() => {
          stalled();
          return ResultAsync.fromSafePromise(resumed);
        });
      },
    }));
    upload('passport.pdf');
    const payload = exampleIndividualPayload({ idDocuments: ['passport.pdf'] });
    const slow = kit.clients.createIndividual(manager, payload);
    await stalledBeforeCommit;
    // Its claim expires while it waits; another create takes the upload over and commits.
    clock.advance(6 * 60_000);
    (await kit.clients.createIndividual(manager, payload))._unsafeUnwrap();
    release();
    expect((await slow)._unsafeUnwrapErr()).toMatchObject({ type: 'StorageUnavailable' });
    expect(await countOf(database.tables.clients)).toBe(1);
    expect(await countOf(database.tables.documents)).toBe(1);
    expect(files.listDocumentKeys()).toHaveLength(1);
  });

  it("a create's claims on its uploads stay until they expire: a claim racing its commit finds them", async () => {
    // Deleted with the documents (as tried once), a claim whose statement began before the commit
    // saw no document yet and, having waited for the commit, found no claim row: it took the
    // upload, and its command failed at its own document (a 503, not the 400 refusal), 1 run in 12
    // of the parallel creates above.
    const { kit, manager, upload } = kitOnControllableClock();
    const claims = async () =>
      (await database.pool.query(`SELECT count(*)::int AS n FROM ${database.tables.temporaryFileClaims}`))
        .rows[0]?.n;
    const before = await claims();
    upload('id.pdf');
    upload('proof.pdf');
    const payload = exampleIndividualPayload({
      idDocuments: ['id.pdf'],
      proofOfAddressDocuments: ['proof.pdf'],
    });
    expect((await kit.clients.createIndividual(manager, payload)).isOk()).toBe(true);
    expect(await claims()).toBe(before + 2);
  });

  it('claims that expired are deleted by later claims: the table holds about the claims in force', async () => {
    const index = database.adapters.documentIndex;
    const at = new Date();
    const claim = (upload: string, now: Date) =>
      index.claimUploads({
        holder: randomUUID(),
        uploads: [upload],
        now,
        expiresAt: new Date(now.getTime() + 60_000),
      });
    const crashed = randomUUID();
    (await claim(crashed, at))._unsafeUnwrap();
    (await claim(randomUUID(), new Date(at.getTime() + 60_000)))._unsafeUnwrap();
    const left = await database.pool.query(
      `SELECT 1 FROM ${database.tables.temporaryFileClaims} WHERE upload = $1`,
      [crashed],
    );
    expect(left.rows).toEqual([]);
  });
});
