import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import { screeningCompletedEvent } from '../domain/client-events.js';
import { datedIfChanged } from '../domain/client-version.js';
import {
  recordsFinding,
  screeningHitOf,
  screeningHitPath,
  screeningSubjectsOf,
} from '../domain/screening.js';
import { screeningNameKeys } from '../domain/screening-name-keys.js';
import { type DomainError, lockLostAsInProgress } from '../errors.js';
import type { KitContext } from '../kit-context.js';
import type { LoggedEvent } from '../ports/event-log.js';
import type { ScreenedNameCandidate, ScreenedNameCursor } from '../ports/screened-name-index.js';
import type { ChangedListTarget, ListChangeJob } from '../ports/screening-job-queue.js';
import type {
  ScreeningMatch,
  ScreeningProvider,
  ScreeningSubject,
  ScreeningUnavailable,
} from '../ports/screening-provider.js';
import type { TransactionalStores } from '../ports/unit-of-work.js';
import { combineBounded } from '../results/bounded-concurrency.js';
import type { AuditActor, AuditChange, AuditEntry } from '../schemas/audit.js';
import type { Screening } from '../schemas/client-response.js';
import { type ScreeningListChange, screeningListChangeSchema } from '../schemas/screening-list-change.js';
import { isUuid, parseRequest } from '../validation/parse-request.js';

/** Changed targets per monitoring job: a crash reruns one batch, and processes share the batches. */
export const LIST_CHANGE_BATCH_SIZE = 100;
/**
 * Candidate names read from the index at once: a page repeats the batch's key lookups, so a page
 * takes in all of a usual batch's candidates (about 5,000 for 100 targets against 175,000 names,
 * bench/postgres-screening-monitoring.ts), and a few MB at most.
 */
const CANDIDATE_PAGE = 20_000;
/** Transactions that record new hits at once, each for a group of clients. */
const RECORDING_CONCURRENCY = 4;
/**
 * Clients whose new hits one transaction records: a transaction of 7 statements a client (the
 * lock, the screening, its event, webhook jobs and audit entry) was most of a run's time
 * (bench/postgres-screening-monitoring.ts); a group writes its events and entries in one
 * statement each, and holds its clients' locks for a few milliseconds more.
 */
const RECORDING_GROUP = 20;

/** `items` in consecutive groups of `size`. */
const groupsOf = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, at) => items.slice(at * size, (at + 1) * size));

/** What `listChanged` did: `enqueued` false when the version was given before (by any process). */
export type ListChangeReceipt = {
  readonly version: string;
  readonly changedTargets: number;
  readonly batches: number;
  readonly enqueued: boolean;
};

/** What one monitoring job did: candidate names matched, and the new hits it recorded. */
export type ListChangeReport = { readonly candidates: number; readonly hits: number };

/** Who writes a hit found on a new list version in the trail. */
const MONITORING_ACTOR: AuditActor = { kind: 'system', id: 'screening-monitoring' };

/** The index keys of a name: the provider's (its normalization), else the kit's own. */
export const indexKeysOf =
  (provider: ScreeningProvider | undefined) =>
  (name: string): readonly string[] =>
    provider?.nameKeys?.(name) ?? screeningNameKeys(name);

/**
 * The subjects of one target's screening, split into calls holding one subject of a field and name
 * each: a match names only its subject's field and name, so clients of one name screened with other
 * evidence (another birth date, another country) are asked apart, each answered for itself.
 */
const callsOf = <T extends { readonly subject: ScreeningSubject }>(named: readonly T[]): T[][] => {
  const calls: { subjects: T[]; names: Set<string> }[] = [];
  for (const entry of named) {
    const key = JSON.stringify([entry.subject.field, entry.subject.name]);
    let call = calls.find(({ names }) => !names.has(key));
    if (call === undefined) {
      call = { subjects: [], names: new Set() };
      calls.push(call);
    }
    call.names.add(key);
    call.subjects.push(entry);
  }
  return calls.map(({ subjects }) => subjects);
};

/** The subject a candidate row stands for, as the provider takes it. */
const subjectOf = ({ field, name, kind, country, birthDate }: ScreenedNameCandidate): ScreeningSubject => ({
  field,
  name,
  kind,
  ...(country === undefined ? {} : { country }),
  ...(birthDate === undefined ? {} : { birthDate }),
});

/**
 * Ongoing screening (decisions §12): a new list version's changed targets are matched against the
 * index of the names the kit screened, so that its cost follows the change, not the client base.
 * The index only selects candidates, generously (shared words and sound skeletons); the provider
 * decides which candidates are hits, scoped to the changed targets. Each batch of targets is one
 * job; a job records its hits by groups of clients, a transaction a group, skipping findings
 * the client already has, so that a job run again after a crash adds nothing twice.
 */
export const createScreeningMonitoring = (ctx: KitContext) => {
  const { ports } = ctx;

  const listChanged = (input: unknown): ResultAsync<ListChangeReceipt, DomainError> => {
    const parsed = parseRequest(screeningListChangeSchema, input);
    if (parsed.isErr()) return errAsync(parsed.error);
    const change: ScreeningListChange = parsed.value;
    // A target named twice is the last one given.
    const targets = [...new Map(change.changedTargets.map((target) => [target.id, target])).values()];
    const jobs: ListChangeJob[] = [];
    if (ports.screening !== undefined) {
      for (let start = 0; start < targets.length; start += LIST_CHANGE_BATCH_SIZE) {
        jobs.push({
          type: 'monitor-list-change',
          version: change.version,
          batch: jobs.length,
          targets: targets.slice(start, start + LIST_CHANGE_BATCH_SIZE),
        });
      }
    }
    return ports.unitOfWork
      .transaction((tx) => tx.screeningJobs.enqueueListChange(change.version, jobs))
      .mapErr(lockLostAsInProgress)
      .map((enqueued) => ({
        version: change.version,
        changedTargets: targets.length,
        batches: jobs.length,
        enqueued,
      }));
  };

  /** What recording one client's findings adds to its group's transaction. */
  type Recorded = { readonly hits: number; readonly events: LoggedEvent[]; readonly entries: AuditEntry[] };
  const nothingRecorded: Recorded = { hits: 0, events: [], entries: [] };

  /**
   * Adds the client's new findings to its screening, locked in `tx`; its event and audit entry are
   * given back to be written with the group's.
   */
  const recordClientHits = (
    tx: TransactionalStores,
    clientId: string,
    matches: readonly ScreeningMatch[],
  ): ResultAsync<Recorded, DomainError> =>
    tx.clients.findForUpdate(clientId).andThen((client): ResultAsync<Recorded, DomainError> => {
      const screening = client?.screening ?? null;
      // A screening pending or failed runs in full against the current list anyway.
      if (
        client === null ||
        screening === null ||
        screening.status === 'PENDING' ||
        screening.status === 'ERROR'
      )
        return okAsync(nothingRecorded);
      const subjects = screeningSubjectsOf(client);
      const hits = [...screening.hits];
      const changes: AuditChange[] = [];
      for (const match of matches) {
        // The index may be behind a resubmission: only the client's current names count.
        const current = subjects.some(
          (subject) => subject.field === match.field && subject.name === match.name,
        );
        if (!current || hits.some((hit) => recordsFinding(hit, match))) continue;
        const hit = screeningHitOf(match, ports.ids.uuid());
        changes.push({ path: screeningHitPath(hit.id), before: null, after: hit });
        hits.push(hit);
      }
      if (changes.length === 0) return okAsync(nothingRecorded);
      const added = changes.length;
      const at = ports.clock.now().toISOString();
      const next: Screening = { status: 'POSSIBLE_MATCH', screenedAt: at, hits };
      if (screening.status !== next.status) {
        changes.unshift({ path: 'screening.status', before: screening.status, after: next.status });
      }
      const updated = datedIfChanged(client, { ...client, screening: next }, at);
      const event = screeningCompletedEvent(updated, { newId: () => ports.ids.uuid(), at });
      const entry: AuditEntry = {
        id: ports.ids.uuid(),
        clientId,
        action: 'screening-result',
        actor: MONITORING_ACTOR,
        requestId: null,
        at,
        changes,
        documents: [],
      };
      return tx.clients
        .updateScreening(clientId, next, updated.updatedAt)
        .map((): Recorded => ({ hits: added, events: [event], entries: [entry] }));
    });

  /**
   * Records the new findings of a group of clients in one transaction: each client locked in id
   * order (as every other writer of several clients locks them), its screening updated, then the
   * group's events, webhook jobs and audit entries written together. A group run again after a
   * crash finds its findings there and adds nothing.
   */
  const recordHits = (group: readonly (readonly [string, readonly ScreeningMatch[]])[]) =>
    ports.unitOfWork
      .transaction((tx) => {
        let recorded: ResultAsync<Recorded, DomainError> = okAsync(nothingRecorded);
        for (const [clientId, matches] of [...group].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
          recorded = recorded.andThen((sum) =>
            recordClientHits(tx, clientId, matches).map(
              (one): Recorded => ({
                hits: sum.hits + one.hits,
                events: [...sum.events, ...one.events],
                entries: [...sum.entries, ...one.entries],
              }),
            ),
          );
        }
        return recorded.andThen(({ hits, events, entries }) =>
          events.length === 0
            ? okAsync(hits)
            : tx.events
                .append(events)
                .andThen(() => tx.webhookJobs.enqueueEventDeliveries(events))
                .andThen(() => tx.audit.append(entries, ctx.auditSealer))
                .map(() => hits),
        );
      })
      .mapErr(lockLostAsInProgress);

  /** Screens one page of candidates against the targets each shares a key with; their matches by client. */
  const matchPage = (
    candidates: readonly ScreenedNameCandidate[],
    targetsByKey: ReadonlyMap<string, readonly ChangedListTarget[]>,
  ): ResultAsync<Map<string, ScreeningMatch[]>, ScreeningUnavailable> => {
    const provider = ports.screening;
    const byClient = new Map<string, ScreeningMatch[]>();
    if (provider === undefined) return okAsync(byClient);
    // One provider call per target, with every distinct name that shares a key with it (clients
    // with the same name on the same field share the provider's answer).
    const groups = new Map<string, Map<string, { subject: ScreeningSubject; clientIds: string[] }>>();
    for (const candidate of candidates) {
      const targetIds = new Set<string>();
      for (const key of candidate.keys) {
        for (const target of targetsByKey.get(key) ?? []) targetIds.add(target.id);
      }
      const subject = subjectOf(candidate);
      // Clients of one name share the answer only with the same evidence (country, birth date).
      const subjectKey = JSON.stringify([
        subject.field,
        subject.name,
        subject.kind,
        subject.country ?? null,
        subject.birthDate ?? null,
      ]);
      for (const targetId of targetIds) {
        let group = groups.get(targetId);
        if (group === undefined) {
          group = new Map();
          groups.set(targetId, group);
        }
        const same = group.get(subjectKey);
        if (same === undefined) group.set(subjectKey, { subject, clientIds: [candidate.clientId] });
        else same.clientIds.push(candidate.clientId);
      }
    }
    let screened: ResultAsync<void, ScreeningUnavailable> = okAsync(undefined);
    for (const [targetId, group] of groups) {
      for (const named of callsOf([...group.values()]))
        screened = screened.andThen(() =>
          provider
            .screen(
              named.map(({ subject }) => subject),
              { targetIds: [targetId] },
            )
            .andThen((matches) => {
              for (const match of matches) {
                // A provider that could not narrow its search answers other targets too.
                if (match.targetId !== targetId) continue;
                const of = named.filter(
                  ({ subject }) => subject.field === match.field && subject.name === match.name,
                );
                for (const clientId of of.flatMap(({ clientIds }) => clientIds)) {
                  const found = byClient.get(clientId);
                  if (found === undefined) byClient.set(clientId, [match]);
                  else found.push(match);
                }
              }
              return okAsync(undefined);
            }),
        );
    }
    return screened.map(() => byClient);
  };

  /** Runs one batch of a list change: page by page through the candidates, hits recorded as found. */
  const runListChange = (
    job: ListChangeJob,
  ): ResultAsync<ListChangeReport, DomainError | ScreeningUnavailable> => {
    const targetsByKey = new Map<string, ChangedListTarget[]>();
    const keysOf = indexKeysOf(ports.screening);
    for (const target of job.targets) {
      for (const key of new Set(target.names.flatMap(keysOf))) {
        const targets = targetsByKey.get(key);
        if (targets === undefined) targetsByKey.set(key, [target]);
        else targets.push(target);
      }
    }
    const keys = [...targetsByKey.keys()];
    const page = (
      after: ScreenedNameCursor | undefined,
      done: ListChangeReport,
    ): ResultAsync<ListChangeReport, DomainError | ScreeningUnavailable> =>
      ports.screenedNames
        .candidates({ keys, limit: CANDIDATE_PAGE, ...(after === undefined ? {} : { after }) })
        .andThen((candidates) =>
          matchPage(candidates, targetsByKey)
            .andThen((byClient) =>
              // Groups of clients, a few groups at once; a client is in one group of the page.
              combineBounded(
                groupsOf(
                  [...byClient].filter(([clientId]) => isUuid(clientId)),
                  RECORDING_GROUP,
                ),
                RECORDING_CONCURRENCY,
                recordHits,
              ).map((counts) => counts.reduce((sum, count) => sum + count, 0)),
            )
            .andThen((hits) => {
              const report = { candidates: done.candidates + candidates.length, hits: done.hits + hits };
              const last = candidates.at(-1);
              return candidates.length < CANDIDATE_PAGE || last === undefined
                ? okAsync(report)
                : page({ clientId: last.clientId, field: last.field }, report);
            }),
        );
    return keys.length === 0 || ports.screening === undefined
      ? okAsync({ candidates: 0, hits: 0 })
      : page(undefined, { candidates: 0, hits: 0 });
  };

  return { listChanged, runListChange };
};
