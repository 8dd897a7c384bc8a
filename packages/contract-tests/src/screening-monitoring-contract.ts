import { randomUUID } from 'node:crypto';
import {
  type AuditEntry,
  type CompliancePrincipal,
  exampleEntityPayload,
  type ManagerPrincipal,
  type OnboardingKit,
} from '@onboarding-kit/core';
import {
  type ChangedListTarget,
  type IndexedScreeningName,
  type ListChangeJob,
  type ScreeningMatch,
  type ScreeningProvider,
  type ScreeningSubject,
  screeningNameKeys,
  screeningUnavailable,
} from '@onboarding-kit/core/adapter';
import { errAsync, okAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { expectOk } from './result-assertions.js';
import { openFixture, type Teardown } from './test-fixture.js';

/**
 * A provider over a list the test changes: a subject matches a target when one of the target's
 * names equals it (case aside). It honours the scope as a list provider does, records what it was
 * asked, and fails the calls the test tells it to.
 */
export type MonitoredList = ScreeningProvider & {
  /** Makes `targets` the list in use (a new version). */
  use(targets: readonly ChangedListTarget[]): void;
  /** Subject names asked about, call by call, with the targets the call was scoped to. */
  readonly calls: { names: string[]; targetIds: readonly string[] | null }[];
  /** The subjects asked about, call by call, whole (their country and birth date: the evidence). */
  readonly subjects: (readonly ScreeningSubject[])[];
  /** Fails the next `count` calls that are scoped (monitoring's), after letting `after` of them through. */
  failScoped(count: number, after?: number): void;
};

/**
 * `spelled`: how the provider reads a name before comparing (a transliteration); given, the list
 * also gives the kit its index keys, made from the name as it reads it.
 */
export const createMonitoredList = (spelled?: (name: string) => string): MonitoredList => {
  const read = spelled ?? ((name: string) => name);
  let targets: readonly ChangedListTarget[] = [];
  let failures = { count: 0, after: 0 };
  const calls: MonitoredList['calls'] = [];
  const asked: MonitoredList['subjects'] = [];
  return {
    ...(spelled === undefined ? {} : { nameKeys: (name: string) => screeningNameKeys(read(name)) }),
    calls,
    subjects: asked,
    use: (next) => {
      targets = next;
    },
    failScoped: (count, after = 0) => {
      failures = { count, after };
    },
    screen: (subjects, scope) => {
      calls.push({ names: subjects.map(({ name }) => name), targetIds: scope?.targetIds ?? null });
      asked.push(subjects);
      if (scope !== undefined && failures.count > 0) {
        if (failures.after > 0) failures.after -= 1;
        else {
          failures.count -= 1;
          return errAsync(screeningUnavailable(new Error('the list went away mid-run')));
        }
      }
      const matches: ScreeningMatch[] = [];
      for (const subject of subjects) {
        for (const target of targets) {
          if (scope !== undefined && !scope.targetIds.includes(target.id)) continue;
          const matched = target.names.find(
            (name) => read(name).toLowerCase() === read(subject.name).toLowerCase(),
          );
          if (matched === undefined) continue;
          matches.push({
            field: subject.field,
            name: subject.name,
            listName: 'Test sanctions',
            matchedName: matched,
            score: 1,
            targetId: target.id,
          });
        }
      }
      return okAsync(matches);
    },
  };
};

export type ScreeningMonitoringContractFixture = Teardown & {
  /** A kit on the back end, screening with the `list` given to setup. */
  readonly kit: OnboardingKit;
  /** Another kit on the same store, as a second process of the host would be. */
  readonly otherProcess: OnboardingKit;
  /**
   * Runs the screening jobs until none is left to run (retries included, their back-off passed),
   * by whatever runs them on this back end.
   */
  runJobs(): Promise<void>;
  readonly inspect: {
    /** The client's rows of the index of screened names, read directly. */
    readScreenedNames(clientId: string): Promise<IndexedScreeningName[]>;
    /** Deletes the client's rows of the index directly, as for a client screened before the index existed. */
    forgetScreenedNames(clientId: string): Promise<void>;
    /** The monitoring jobs of a list version ever enqueued (waiting, running or done). */
    countListChangeJobs(version: string): Promise<number>;
  };
};

export type ScreeningMonitoringContractOptions = {
  readonly name: string;
  readonly setup: (list: MonitoredList) => Promise<ScreeningMonitoringContractFixture>;
};

/** The client an event is about (`documents.promoted` names none). */
const clientOf = (event: { readonly data: object }): string | null =>
  'client' in event.data ? (event.data.client as { id: string }).id : null;

const compliance: CompliancePrincipal = { kind: 'compliance', complianceId: 'officer-monitoring' };

const aManager = (): ManagerPrincipal => ({ kind: 'manager', managerId: randomUUID() });

/** A company named `name` (one of its screened names; its people are the example's). */
const company = (name: string) => {
  const payload = exampleEntityPayload();
  return { ...payload, company: { ...payload.company, name } };
};

/** Names no other test uses, so that tests sharing one store never meet each other's clients. */
const uniqueSurname = () => `Zed${randomUUID().replaceAll('-', '').slice(0, 10)}`;

/**
 * Ongoing screening on a back end (core/src/services/screening-monitoring.ts over the
 * ScreenedNameIndex and ScreeningJobQueue ports): what a list version changed is matched against
 * the clients already screened; hits once, dismissals kept, one run per version, redaction leaves
 * nothing in the index.
 */
export const runScreeningMonitoringContract = ({ name, setup }: ScreeningMonitoringContractOptions): void => {
  describe(`Screening monitoring contract: ${name}`, () => {
    const screenedClient = async (
      fixture: ScreeningMonitoringContractFixture,
      manager: ManagerPrincipal,
      firstName: string,
      lastName: string,
    ) => {
      const created = await expectOk(
        fixture.kit.clients.createEntity(manager, company(`${firstName} ${lastName}`)),
      );
      await fixture.runJobs();
      const screened = await expectOk(fixture.kit.clients.get(manager, created.id));
      expect(screened.screening?.status).toBe('CLEAR');
      return created.id;
    };

    it('checks the clients already screened against what a version changed: the hit, its event and its audit entry', async () => {
      const list = createMonitoredList();
      const fixture = await openFixture(() => setup(list));
      const { kit } = fixture;
      const manager = aManager();
      const surname = uniqueSurname();
      const listed = await screenedClient(fixture, manager, 'Ivan', surname);
      const other = await screenedClient(fixture, manager, 'Olga', surname);
      const indexed = await fixture.inspect.readScreenedNames(listed);
      expect(indexed).toHaveLength(5);
      expect(indexed).toContainEqual({
        field: 'company',
        name: `Ivan ${surname}`,
        kind: 'COMPANY',
        country: 'FR',
        keys: screeningNameKeys(`Ivan ${surname}`),
      });

      const version = `v-${randomUUID()}`;
      const target = { id: `T-${randomUUID()}`, names: [`IVAN ${surname.toUpperCase()}`, `Ivan ${surname}`] };
      list.use([target]);
      const receipt = await expectOk(kit.screening.listChanged({ version, changedTargets: [target] }));
      expect(receipt).toEqual({ version, changedTargets: 1, batches: 1, enqueued: true });
      await fixture.runJobs();

      const hit = await expectOk(kit.clients.get(manager, listed));
      expect(hit.screening).toEqual({
        status: 'POSSIBLE_MATCH',
        screenedAt: expect.any(String),
        hits: [
          expect.objectContaining({
            field: 'company',
            name: `Ivan ${surname}`,
            matchedName: `IVAN ${surname.toUpperCase()}`,
            targetId: target.id,
            resolution: null,
          }),
        ],
      });
      // The provider was asked about the changed target only, and about its candidates only: Olga
      // shares one word with the target, not two.
      const scoped = list.calls.filter((call) => call.targetIds !== null);
      expect(scoped.map((call) => ({ ...call, names: [...call.names].sort() }))).toEqual([
        { names: [`Ivan ${surname}`], targetIds: [target.id] },
      ]);
      expect((await expectOk(kit.clients.get(manager, other))).screening?.status).toBe('CLEAR');

      const events = await expectOk(kit.events.list(manager, { type: 'client.screening_completed' }));
      expect(events.data.filter((event) => clientOf(event) === listed)).toHaveLength(2);
      expect(events.data.filter((event) => clientOf(event) === other)).toHaveLength(1);
      const trail = await expectOk(kit.audit.list(compliance, listed, {}));
      const monitoring = trail.data.filter(
        (entry: AuditEntry) => entry.actor.kind === 'system' && entry.actor.id === 'screening-monitoring',
      );
      expect(monitoring).toEqual([
        expect.objectContaining({
          action: 'screening-result',
          changes: [
            { path: 'screening.status', before: 'CLEAR', after: 'POSSIBLE_MATCH' },
            expect.objectContaining({
              path: expect.stringMatching(/^screening\.hits\[\?@\.id=='[0-9a-f-]{36}'\]$/),
              before: null,
            }),
          ],
        }),
      ]);
    });

    it("keeps each person's birth date with the screened name: a version's change is screened with it, as the full screening was", async () => {
      const list = createMonitoredList();
      const fixture = await openFixture(() => setup(list));
      const { kit } = fixture;
      const manager = aManager();
      const surname = uniqueSurname();
      const payload = company(`${surname} Trading`);
      const [director] = payload.companyDirectorsAndUbos.directors;
      if (director === undefined) expect.fail('the example has a director');
      const created = await expectOk(
        kit.clients.createEntity(manager, {
          ...payload,
          companyDirectorsAndUbos: {
            ...payload.companyDirectorsAndUbos,
            directors: [
              {
                ...director,
                name: `Ivan ${surname}`,
                dateOfBirth: '1961-04-12',
              },
            ],
          },
        }),
      );
      await fixture.runJobs();
      const full = list.subjects.flat().find((subject) => subject.name === `Ivan ${surname}`);
      expect(full).toEqual({
        field: 'companyDirectorsAndUbos.directors[0]',
        name: `Ivan ${surname}`,
        kind: 'PERSON',
        birthDate: '1961-04-12',
      });
      expect(await fixture.inspect.readScreenedNames(created.id)).toContainEqual({
        ...full,
        keys: screeningNameKeys(`Ivan ${surname}`),
      });
      // A person without a date carries none (the example's UBO).
      expect(
        (await fixture.inspect.readScreenedNames(created.id)).find(
          (name) => name.field === 'companyDirectorsAndUbos.ubos[0]',
        ),
      ).not.toHaveProperty('birthDate');

      const target = { id: `T-${randomUUID()}`, names: [`Ivan ${surname}`] };
      list.use([target]);
      await expectOk(kit.screening.listChanged({ version: `v-${randomUUID()}`, changedTargets: [target] }));
      const asked = list.subjects.length;
      await fixture.runJobs();
      expect(list.subjects.slice(asked).flat()).toEqual([full]);
    });

    it('runs a version once, whichever processes are handed it, and a job run again adds nothing twice', async () => {
      const list = createMonitoredList();
      const fixture = await openFixture(() => setup(list));
      const { kit, otherProcess } = fixture;
      const manager = aManager();
      const surname = uniqueSurname();
      const listed = await screenedClient(fixture, manager, 'Anna', surname);
      const target = { id: `T-${randomUUID()}`, names: [`Anna ${surname}`] };
      list.use([target]);
      const change = { version: `v-${randomUUID()}`, changedTargets: [target] };
      const receipts = await Promise.all([
        expectOk(kit.screening.listChanged(change)),
        expectOk(otherProcess.screening.listChanged(change)),
      ]);
      expect(receipts.map((receipt) => receipt.enqueued).sort()).toEqual([false, true]);
      expect(await fixture.inspect.countListChangeJobs(change.version)).toBe(1);
      await fixture.runJobs();
      expect(await expectOk(kit.screening.listChanged(change))).toMatchObject({ enqueued: false });
      expect(await fixture.inspect.countListChangeJobs(change.version)).toBe(1);

      // As after a crash between the job's writes and its completion: the same job runs again.
      const job: ListChangeJob = {
        type: 'monitor-list-change',
        version: change.version,
        batch: 0,
        targets: [target],
      };
      await expectOk(otherProcess.screening.runJob(job));
      const client = await expectOk(kit.clients.get(manager, listed));
      expect(client.screening?.hits.map((hit) => hit.targetId)).toEqual([target.id]);
      const events = await expectOk(kit.events.list(manager, { type: 'client.screening_completed' }));
      expect(events.data.filter((event) => clientOf(event) === listed)).toHaveLength(2);
    });

    it('resumes a run that failed midway: the retry records each hit once', async () => {
      const list = createMonitoredList();
      const fixture = await openFixture(() => setup(list));
      const { kit } = fixture;
      const manager = aManager();
      const surname = uniqueSurname();
      const first = await screenedClient(fixture, manager, 'Pavel', surname);
      const second = await screenedClient(fixture, manager, 'Nina', surname);
      const targets = [
        { id: `T-${randomUUID()}`, names: [`Pavel ${surname}`] },
        { id: `T-${randomUUID()}`, names: [`Nina ${surname}`] },
      ];
      list.use(targets);
      // The first target's call answers, the second's fails: the job fails and is retried.
      list.failScoped(1, 1);
      await expectOk(kit.screening.listChanged({ version: `v-${randomUUID()}`, changedTargets: targets }));
      await fixture.runJobs();
      for (const [clientId, target] of [
        [first, targets[0]],
        [second, targets[1]],
      ] as const) {
        const client = await expectOk(kit.clients.get(manager, clientId));
        expect(client.screening?.hits.map((hit) => hit.targetId)).toEqual([target?.id]);
        const events = await expectOk(kit.events.list(manager, { type: 'client.screening_completed' }));
        expect(events.data.filter((event) => clientOf(event) === clientId)).toHaveLength(2);
      }
      expect(list.calls.filter((call) => call.targetIds !== null).length).toBeGreaterThanOrEqual(4);
    });

    it('keeps a dismissed hit dismissed on later versions; it comes back when the listed names change', async () => {
      const list = createMonitoredList();
      const fixture = await openFixture(() => setup(list));
      const { kit } = fixture;
      const manager = aManager();
      const surname = uniqueSurname();
      const clientId = await screenedClient(fixture, manager, 'Marta', surname);
      const target = { id: `T-${randomUUID()}`, names: [`Marta ${surname}`] };
      list.use([target]);
      await expectOk(kit.screening.listChanged({ version: `v-${randomUUID()}`, changedTargets: [target] }));
      await fixture.runJobs();
      const found = await expectOk(kit.clients.get(manager, clientId));
      const hitId = found.screening?.hits[0]?.id ?? '';
      await expectOk(
        kit.screening.resolveHit(compliance, clientId, hitId, {
          decision: 'DISMISSED',
          reason: 'Other person',
        }),
      );

      // The same target under the same names in a later version (a host that passes every target).
      await expectOk(kit.screening.listChanged({ version: `v-${randomUUID()}`, changedTargets: [target] }));
      await fixture.runJobs();
      const still = await expectOk(kit.clients.get(manager, clientId));
      expect(still.screening?.hits).toEqual([
        expect.objectContaining({
          id: hitId,
          resolution: expect.objectContaining({ decision: 'DISMISSED' }),
        }),
      ]);
      expect(still.screening?.status).toBe('POSSIBLE_MATCH');

      // The target renamed: the match is a new finding, open again beside the dismissed one.
      const renamed = { id: target.id, names: [`MARTA ${surname.toUpperCase()}`] };
      list.use([renamed]);
      await expectOk(kit.screening.listChanged({ version: `v-${randomUUID()}`, changedTargets: [renamed] }));
      await fixture.runJobs();
      const back = await expectOk(kit.clients.get(manager, clientId));
      expect(back.screening?.hits.map((hit) => [hit.matchedName, hit.resolution?.decision ?? null])).toEqual([
        [`Marta ${surname}`, 'DISMISSED'],
        [`MARTA ${surname.toUpperCase()}`, null],
      ]);
    });

    it("keeps a dismissed hit dismissed through a resubmission's full screening; it comes back when the client's name or the target's names change", async () => {
      const list = createMonitoredList();
      const fixture = await openFixture(() => setup(list));
      const { kit } = fixture;
      const manager = aManager();
      const surname = uniqueSurname();
      const target = { id: `T-${randomUUID()}`, names: [`Rita ${surname}`] };
      list.use([target]);
      const created = await expectOk(kit.clients.createEntity(manager, company(`Rita ${surname}`)));
      await fixture.runJobs();
      const found = await expectOk(kit.clients.get(manager, created.id));
      const hitId = found.screening?.hits[0]?.id ?? '';
      expect(found.screening?.hits.map((hit) => hit.targetId)).toEqual([target.id]);
      await expectOk(
        kit.screening.resolveHit(compliance, created.id, hitId, { decision: 'DISMISSED', reason: 'Other' }),
      );
      const resubmitted = async (companyName: string) => {
        await expectOk(kit.compliance.requestResubmission(compliance, created.id, { reason: 'Again' }));
        await expectOk(kit.clients.resubmitEntity(manager, created.id, company(companyName)));
        await fixture.runJobs();
        return (await expectOk(kit.clients.get(manager, created.id))).screening;
      };

      // The same names screened in full again: the same finding, dismissed as it was.
      const again = await resubmitted(`Rita ${surname}`);
      expect(again).toEqual({
        status: 'POSSIBLE_MATCH',
        screenedAt: expect.any(String),
        hits: [
          expect.objectContaining({
            id: hitId,
            targetId: target.id,
            resolution: expect.objectContaining({ decision: 'DISMISSED', reason: 'Other' }),
          }),
        ],
      });
      expect(
        (await expectOk(kit.clients.get(manager, created.id))).requirements.filter((requirement) =>
          requirement.code.startsWith('SCREENING'),
        ),
      ).toEqual([]);

      // The client's name written otherwise (the list still matches it): a new finding, open.
      const renamed = await resubmitted(`RITA ${surname.toUpperCase()}`);
      expect(renamed?.hits.map((hit) => [hit.name, hit.resolution?.decision ?? null])).toEqual([
        [`RITA ${surname.toUpperCase()}`, null],
      ]);
      const openId = renamed?.hits[0]?.id ?? '';
      await expectOk(
        kit.screening.resolveHit(compliance, created.id, openId, { decision: 'DISMISSED', reason: 'Other' }),
      );

      // The target's names changed in the list: the finding is new again, on a full screening too.
      list.use([{ id: target.id, names: [`RITA ${surname.toUpperCase()}`] }]);
      const relisted = await resubmitted(`RITA ${surname.toUpperCase()}`);
      expect(relisted?.hits.map((hit) => hit.resolution?.decision ?? null)).toEqual([null]);
    });

    it("indexes and looks names up under the provider's keys: a client written in Cyrillic is found by a target in Latin letters", async () => {
      const cyrillic: Record<string, string> = { И: 'I', и: 'i', в: 'v', а: 'a', н: 'n' };
      const list = createMonitoredList((name) =>
        [...name].map((letter) => cyrillic[letter] ?? letter).join(''),
      );
      const fixture = await openFixture(() => setup(list));
      const { kit } = fixture;
      const manager = aManager();
      const surname = uniqueSurname();
      const clientId = await screenedClient(fixture, manager, 'Иван', surname);
      expect(await fixture.inspect.readScreenedNames(clientId)).toContainEqual(
        expect.objectContaining({ field: 'company', keys: screeningNameKeys(`Ivan ${surname}`) }),
      );
      const target = { id: `T-${randomUUID()}`, names: [`Ivan ${surname}`] };
      list.use([target]);
      await expectOk(kit.screening.listChanged({ version: `v-${randomUUID()}`, changedTargets: [target] }));
      await fixture.runJobs();
      const client = await expectOk(kit.clients.get(manager, clientId));
      expect(client.screening?.hits.map((hit) => [hit.name, hit.targetId])).toEqual([
        [`Иван ${surname}`, target.id],
      ]);
    });

    it('indexes the clients screened before the index existed, batch by batch: a later version finds them', async () => {
      const list = createMonitoredList();
      const fixture = await openFixture(() => setup(list));
      const { kit, otherProcess } = fixture;
      const manager = aManager();
      const surname = uniqueSurname();
      const firstNames = ['Vera', 'Yuri', 'Zoya'];
      const clientIds: string[] = [];
      for (const firstName of firstNames) {
        const clientId = await screenedClient(fixture, manager, firstName, surname);
        await fixture.inspect.forgetScreenedNames(clientId);
        expect(await fixture.inspect.readScreenedNames(clientId)).toEqual([]);
        clientIds.push(clientId);
      }
      const targets = firstNames.map((firstName) => ({
        id: `T-${randomUUID()}`,
        names: [`${firstName} ${surname}`],
      }));
      list.use(targets);
      // Not in the index: a version naming them finds none of them.
      await expectOk(kit.screening.listChanged({ version: `v-${randomUUID()}`, changedTargets: targets }));
      await fixture.runJobs();
      for (const clientId of clientIds) {
        expect((await expectOk(kit.clients.get(manager, clientId))).screening?.status).toBe('CLEAR');
      }

      expect(await expectOk(kit.screening.reindexScreenedNames({ batchSize: 2 }))).toEqual({ batchSize: 2 });
      await fixture.runJobs();
      for (const [at, clientId] of clientIds.entries()) {
        const indexed = await fixture.inspect.readScreenedNames(clientId);
        expect(indexed).toHaveLength(5);
        expect(indexed).toContainEqual(
          expect.objectContaining({
            field: 'company',
            name: `${firstNames[at]} ${surname}`,
            kind: 'COMPANY',
          }),
        );
      }
      // A batch run again, as after a crash before its completion: the same entries.
      const before = await fixture.inspect.readScreenedNames(clientIds[0] ?? '');
      await expectOk(
        otherProcess.screening.runJob({ type: 'index-screened-names', after: null, batchSize: 1_000 }),
      );
      expect(await fixture.inspect.readScreenedNames(clientIds[0] ?? '')).toEqual(before);

      await expectOk(kit.screening.listChanged({ version: `v-${randomUUID()}`, changedTargets: targets }));
      await fixture.runJobs();
      for (const [at, clientId] of clientIds.entries()) {
        const client = await expectOk(kit.clients.get(manager, clientId));
        expect(client.screening?.hits.map((hit) => hit.targetId)).toEqual([targets[at]?.id]);
      }
      for (const options of [
        { batchSize: 0 },
        { batchSize: 1.5 },
        { batchSize: 1_001 },
        { other: 1 },
        'all',
      ]) {
        const refused = await kit.screening.reindexScreenedNames(options);
        expect(refused._unsafeUnwrapErr()).toMatchObject({ type: 'ValidationFailed' });
      }
    });

    it('a rebuild of the index does not put back the names of a client redacted meanwhile', async () => {
      const list = createMonitoredList();
      const fixture = await openFixture(() => setup(list));
      const { kit } = fixture;
      const manager = aManager();
      const clientId = await screenedClient(fixture, manager, 'Ilya', uniqueSurname());
      await expectOk(kit.clients.delete(manager, clientId));
      await expectOk(kit.redaction.redact(compliance, clientId));
      await expectOk(kit.screening.runJob({ type: 'index-screened-names', after: null, batchSize: 1_000 }));
      expect(await fixture.inspect.readScreenedNames(clientId)).toEqual([]);
    });

    it("redaction takes the client's names out of the index: a later version finds nothing of it", async () => {
      const list = createMonitoredList();
      const fixture = await openFixture(() => setup(list));
      const { kit } = fixture;
      const manager = aManager();
      const surname = uniqueSurname();
      const clientId = await screenedClient(fixture, manager, 'Lev', surname);
      expect(await fixture.inspect.readScreenedNames(clientId)).toHaveLength(5);
      await expectOk(kit.clients.delete(manager, clientId));
      await expectOk(kit.redaction.redact(compliance, clientId));
      expect(await fixture.inspect.readScreenedNames(clientId)).toEqual([]);

      const target = { id: `T-${randomUUID()}`, names: [`Lev ${surname}`] };
      list.use([target]);
      await expectOk(kit.screening.listChanged({ version: `v-${randomUUID()}`, changedTargets: [target] }));
      await fixture.runJobs();
      expect(
        list.calls.filter((call) => call.names.includes(`Lev ${surname}`) && call.targetIds !== null),
      ).toEqual([]);
    });

    it('refuses a change that is not one, and enqueues nothing for it', async () => {
      const list = createMonitoredList();
      const { kit } = await openFixture(() => setup(list));
      for (const change of [
        null,
        { version: '', changedTargets: [] },
        { version: 'v', changedTargets: [{ id: 'T-1', names: [] }] },
        { version: 'v', changedTargets: [{ id: 'T-1', names: ['x'], extra: true }] },
      ]) {
        const refused = await kit.screening.listChanged(change);
        expect(refused._unsafeUnwrapErr()).toMatchObject({ type: 'ValidationFailed' });
      }
    });
  });
};
