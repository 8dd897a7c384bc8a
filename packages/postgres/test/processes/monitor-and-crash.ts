/**
 * Child process of the monitoring crash test: a job runner that works a list change and dies in
 * the middle of it, once the first group of clients' hits is committed and while the second
 * group's transaction is on its way (the test kills it with SIGKILL when it says `midway`).
 * Usage: node --import tsx monitor-and-crash.ts <url> <schema> <targets as JSON>
 */
import { createOnboardingKit, randomUuids, systemClock } from '@onboarding-kit/core';
import type { ChangedListTarget, ScreeningMatch, UnitOfWork } from '@onboarding-kit/core/adapter';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import { okAsync, ResultAsync } from 'neverthrow';
import pg from 'pg';
import { createPostgresAdapters } from '../../src/postgres-adapters.js';
import { startPostgresJobRunner } from '../../src/postgres-job-runner.js';

const [url, schema, targetsJson] = process.argv.slice(2);
if (url === undefined || schema === undefined || targetsJson === undefined) {
  throw new Error('usage: monitor-and-crash.ts <url> <schema> <targets as JSON>');
}
const targets = JSON.parse(targetsJson) as ChangedListTarget[];
const pool = new pg.Pool({ connectionString: url, max: 4 });
const adapters = createPostgresAdapters({ pool, schema });
let transactions = 0;
let first: PromiseLike<unknown> = Promise.resolve();
// The first transaction commits; the second says `midway` once the first is done, and never ends.
const unitOfWork: UnitOfWork = {
  transaction: (work) => {
    transactions += 1;
    if (transactions === 1) {
      const committed = adapters.unitOfWork.transaction(work);
      first = committed.then(() => undefined);
      return committed;
    }
    return ResultAsync.fromSafePromise(
      first.then(() => {
        process.stdout.write('midway\n');
        return new Promise<never>(() => undefined);
      }),
    );
  },
};
const kit = createOnboardingKit({
  ...adapters,
  unitOfWork,
  documentStorage: createMemoryAdapters().documentStorage,
  clock: systemClock,
  ids: randomUuids,
  screening: {
    screen: (subjects, scope) =>
      okAsync(
        subjects.flatMap((subject): ScreeningMatch[] =>
          targets
            .filter((target) => scope === undefined || scope.targetIds.includes(target.id))
            .filter((target) => target.names.includes(subject.name))
            .map((target) => ({
              field: subject.field,
              name: subject.name,
              listName: 'Test sanctions',
              matchedName: subject.name,
              score: 1,
              targetId: target.id,
            })),
        ),
      ),
  },
});
await startPostgresJobRunner({
  pool,
  kit,
  schema,
  screeningConcurrency: 1,
  pollingIntervalSeconds: 0.1,
  orphanSweepCron: null,
  retentionRedactionCron: null,
});
setInterval(() => undefined, 60_000);
