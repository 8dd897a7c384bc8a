import { randomUUID } from 'node:crypto';
import { exampleEntityPayload, type ManagerPrincipal, type OnboardingKit } from '@onboarding-kit/core';
import type { ScreeningProvider } from '@onboarding-kit/core/adapter';
import { ResultAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { expectOk } from './result-assertions.js';
import { openFixture, type Teardown } from './test-fixture.js';

export type ScreeningFairnessContractFixture = Teardown & {
  /** A kit on the back end, screening with the provider given to setup. */
  readonly kit: OnboardingKit;
  /**
   * Starts running the screening jobs as this back end's runner does, in one process, `concurrency`
   * jobs at a time (1 when not given: the least capacity, fairness must not need more); resolves
   * to how to stop it.
   */
  startScreening(concurrency?: number): Promise<() => Promise<void>>;
};

export type ScreeningFairnessContractOptions = {
  readonly name: string;
  readonly setup: (provider: ScreeningProvider) => Promise<ScreeningFairnessContractFixture>;
};

/** The most names a client has: its company, and 50 each of representatives, directors and UBOs. */
const largeEntity = (tag: string) => {
  const base = exampleEntityPayload();
  const [representative] = base.representatives;
  const [director] = base.companyDirectorsAndUbos.directors;
  const [ubo] = base.companyDirectorsAndUbos.ubos;
  if (representative === undefined || director === undefined || ubo === undefined) {
    throw new Error('the example entity has a representative, a director and a UBO');
  }
  const fifty = Array.from({ length: 50 }, (_, i) => i);
  return {
    ...base,
    company: { ...base.company, name: `${tag} Holding` },
    representatives: fifty.map((i) => ({ ...representative, firstName: `Rep${i}`, lastName: tag })),
    companyDirectorsAndUbos: {
      directors: fifty.map((i) => ({ ...director, name: `Director${i} ${tag}` })),
      ubos: fifty.map((i) => ({ ...ubo, name: `Owner${i} ${tag}` })),
    },
  };
};

/**
 * Screening is fair between managers: on any back end, a burst of large entities
 * from one manager does not hold back another manager's single client; it is screened after at
 * most the jobs already running and the one in turn before it.
 */
export const runScreeningFairnessContract = ({ name, setup }: ScreeningFairnessContractOptions): void => {
  describe(`Screening fairness contract: ${name}`, () => {
    it("screens another manager's client while one manager's burst of 151-name entities is still queued", async () => {
      const run = randomUUID().slice(0, 8);
      /** Company names in the order their screenings started and ended. */
      const started: string[] = [];
      const ended: string[] = [];
      // A remote provider's pace: a millisecond a name, so a large entity takes about 0.15 s.
      const provider: ScreeningProvider = {
        screen: (subjects) => {
          const company = subjects.find((subject) => subject.field === 'company')?.name ?? '';
          started.push(company);
          return ResultAsync.fromSafePromise(
            new Promise<void>((resolve) => setTimeout(resolve, subjects.length)).then(() => {
              ended.push(company);
              return [];
            }),
          );
        },
      };
      const fixture = await openFixture(() => setup(provider));
      const busy: ManagerPrincipal = { kind: 'manager', managerId: randomUUID() };
      const other: ManagerPrincipal = { kind: 'manager', managerId: randomUUID() };
      const burst = Array.from({ length: 20 }, (_, i) => `Busy${i} ${run}`);
      for (const tag of burst) await expectOk(fixture.kit.clients.createEntity(busy, largeEntity(tag)));
      const single = await expectOk(
        fixture.kit.clients.createEntity(other, {
          ...exampleEntityPayload(),
          company: { ...exampleEntityPayload().company, name: `Single ${run}` },
        }),
      );

      const stop = await fixture.startScreening();
      try {
        const startedAt = Date.now();
        for (;;) {
          const client = await expectOk(fixture.kit.clients.get(other, single.id));
          if (client.screening?.status === 'CLEAR') break;
          if (Date.now() - startedAt > 20_000) throw new Error('the single client was never screened');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        const waited = Date.now() - startedAt;
        // In turn: at most one job of the burst (and one already running) before it, and done
        // while most of the burst is still queued.
        const position = started.indexOf(`Single ${run}`);
        expect(position).toBeGreaterThanOrEqual(0);
        expect(position).toBeLessThanOrEqual(2);
        expect(ended.filter((company) => company.startsWith('Busy')).length).toBeLessThanOrEqual(3);
        // A few seconds at most, where the whole burst takes 20 × 0.15 s of the provider alone.
        expect(waited).toBeLessThan(3_000);
      } finally {
        await stop();
      }
    });

    it('runs as many screenings at once as the runner is given', async () => {
      let inFlight = 0;
      let most = 0;
      const provider: ScreeningProvider = {
        screen: () => {
          inFlight += 1;
          most = Math.max(most, inFlight);
          return ResultAsync.fromSafePromise(
            new Promise<void>((resolve) => setTimeout(resolve, 200)).then(() => {
              inFlight -= 1;
              return [];
            }),
          );
        },
      };
      const fixture = await openFixture(() => setup(provider));
      const manager: ManagerPrincipal = { kind: 'manager', managerId: randomUUID() };
      const created = [];
      for (let i = 0; i < 8; i += 1) {
        created.push(await expectOk(fixture.kit.clients.createEntity(manager, exampleEntityPayload())));
      }
      const stop = await fixture.startScreening(4);
      try {
        const startedAt = Date.now();
        for (const client of created) {
          for (;;) {
            const screened = await expectOk(fixture.kit.clients.get(manager, client.id));
            if (screened.screening?.status === 'CLEAR') break;
            if (Date.now() - startedAt > 20_000) throw new Error('the clients were never all screened');
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        }
        expect(most).toBe(4);
      } finally {
        await stop();
      }
    });
  });
};
