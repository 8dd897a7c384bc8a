import { randomUUID } from 'node:crypto';
import type { UnitOfWork } from '@onboarding-kit/core/adapter';
import { errAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { expectErr, expectOk } from './result-assertions.js';
import { openFixture, type Teardown } from './test-fixture.js';

export type ScreeningJobQueueContractFixture = Teardown & {
  /** The queue is reached through a transaction's stores only: a job commits with its command. */
  readonly unitOfWork: UnitOfWork;
  readonly inspect: {
    /** The clients of every committed screening job not yet taken by a runner, in any order. */
    readonly listQueuedClientIds: () => Promise<string[]>;
  };
};

export type ScreeningJobQueueContractOptions = {
  readonly name: string;
  readonly setup: () => Promise<ScreeningJobQueueContractFixture>;
};

/** ScreeningJobQueue (core/src/ports/screening-job-queue.ts): one job per client, enqueued with its command. */
export const runScreeningJobQueueContract = ({ name, setup }: ScreeningJobQueueContractOptions): void => {
  describe(`ScreeningJobQueue contract: ${name}`, () => {
    it('enqueues one job per client, committed with the transaction', async () => {
      const { unitOfWork, inspect } = await openFixture(setup);
      const [first, second] = [randomUUID(), randomUUID()];
      await expectOk(
        unitOfWork.transaction((stores) =>
          stores.screeningJobs
            .enqueueScreening(first)
            .andThen(() => stores.screeningJobs.enqueueScreening(second)),
        ),
      );
      const queued = await inspect.listQueuedClientIds();
      expect(queued.filter((id) => id === first || id === second).sort()).toEqual([first, second].sort());
    });

    it('keeps no job of a rolled-back transaction', async () => {
      const { unitOfWork, inspect } = await openFixture(setup);
      const clientId = randomUUID();
      await expectErr(
        unitOfWork.transaction((stores) =>
          stores.screeningJobs
            .enqueueScreening(clientId)
            .andThen(() => errAsync({ type: 'DecidedAgainst' as const })),
        ),
      );
      expect(await inspect.listQueuedClientIds()).not.toContain(clientId);
    });
  });
};
