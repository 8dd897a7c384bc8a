import { errAsync, ok, okAsync, type ResultAsync } from 'neverthrow';
import { type ClientCommandContext, changedSinceSeen } from '../commands/client-transition.js';
import { runCommand } from '../commands/idempotent-command.js';
import { auditActorOf } from '../domain/audit-entry.js';
import { type StoredClient, toClientResponse } from '../domain/client.js';
import { screeningCompletedEvent } from '../domain/client-events.js';
import { datedIfChanged } from '../domain/client-version.js';
import { completedScreening, screeningAuditChanges, screeningSubjectsOf } from '../domain/screening.js';
import {
  clientNotFound,
  type DomainError,
  invalidStatus,
  lockLostAsInProgress,
  screeningHitNotFound,
} from '../errors.js';
import type { KitContext } from '../kit-context.js';
import type { LoggedEvent } from '../ports/event-log.js';
import type { ScreeningJob } from '../ports/screening-job-queue.js';
import type { ScreeningSubject, ScreeningUnavailable } from '../ports/screening-provider.js';
import type { CompliancePrincipal } from '../principal.js';
import type { AuditActor, AuditEntry } from '../schemas/audit.js';
import { CLIENT_EVENT_API_VERSION, screeningHitResolvedEventType } from '../schemas/client-events.js';
import type { Client, Screening } from '../schemas/client-response.js';
import { resolveScreeningHitBodySchema } from '../schemas/compliance.js';
import { isUuid, parseRequest } from '../validation/parse-request.js';
import { createScreenedNameReindexing, type NameIndexingReceipt } from './screened-name-reindexing.js';
import {
  createScreeningMonitoring,
  indexKeysOf,
  type ListChangeReceipt,
  type ListChangeReport,
} from './screening-monitoring.js';

/**
 * What one screening job did: `screened` false when there was nothing (left) to screen; a
 * monitoring job also says how many candidate names it matched.
 */
export type ScreeningJobReport = {
  readonly screened: boolean;
  readonly hits: number;
  readonly candidates?: number;
};

/** Why a screening job failed: the job engine runs it again later, with back-off. */
export type ScreeningJobFailure = DomainError | ScreeningUnavailable;

export interface ScreeningService {
  /** Runs one screening job (runners hand every `ScreeningJob` here). */
  runJob(job: ScreeningJob): ResultAsync<ScreeningJobReport, ScreeningJobFailure>;
  /**
   * A new version of the provider's list is in use: every client already screened is checked again
   * against the targets it added or renamed, on the job engine (decisions §12). `change`:
   * `{ version, changedTargets: [{ id, names }] }`. Once per version, whichever process calls it
   * first; a later call with that version enqueues nothing (`enqueued: false`). Without a provider,
   * nothing is monitored.
   */
  listChanged(change: unknown): ResultAsync<ListChangeReceipt, DomainError>;
  /**
   * Rebuilds the index of screened names that monitoring matches list changes against, on the job
   * engine, `batchSize` clients a job (default 200, at most 1,000): once after an upgrade that
   * brought the index (clients screened before it are not in it), and whenever the provider's
   * keys change (`ScreeningProvider.nameKeys`). `options`: `{ batchSize? }`.
   */
  reindexScreenedNames(options?: unknown): ResultAsync<NameIndexingReceipt, DomainError>;
  /** Compliance's decision on one hit; `body`: `{ decision, reason }`. */
  resolveHit(
    principal: CompliancePrincipal,
    clientId: string,
    hitId: string,
    body: unknown,
    context?: ClientCommandContext,
  ): ResultAsync<Client, DomainError>;
}

/**
 * A screening still to run: pending, or failed and waiting for its retry. A client deleted before
 * its screening ran is screened all the same (its data is kept for the retention period, and a
 * listed applicant matters to compliance after a withdrawal too); a redacted one has no screening.
 */
const awaitsScreening = (client: StoredClient | null): client is StoredClient & { screening: Screening } =>
  client !== null && (client.screening?.status === 'PENDING' || client.screening?.status === 'ERROR');

/** Who writes a screening's result in the trail: the kit's screening job. */
const SCREENING_ACTOR: AuditActor = { kind: 'system', id: 'screening' };

const sameSubjects = (a: readonly ScreeningSubject[], b: readonly ScreeningSubject[]) =>
  JSON.stringify(a) === JSON.stringify(b);

const nothingScreened: ScreeningJobReport = { screened: false, hits: 0 };

/**
 * `kit.screening`: the screening of a client's names on the job engine (decisions §12), and the
 * resolution of its hits by compliance. The provider is called outside any transaction; its answer
 * is written under the client's lock only if the names it screened are still the client's (a
 * resubmission meanwhile queued a screening of its own).
 */
export const createScreeningService = (ctx: KitContext): ScreeningService => {
  const { ports } = ctx;
  const keysOf = indexKeysOf(ports.screening);

  /** Writes `screening` if the client still awaits one of these very names; the event when it completed. */
  const record = (clientId: string, subjects: readonly ScreeningSubject[], screening: Screening) =>
    ports.unitOfWork
      .transaction((tx) =>
        tx.clients.findForUpdate(clientId).andThen((client) => {
          if (!awaitsScreening(client) || !sameSubjects(screeningSubjectsOf(client), subjects)) {
            return okAsync(false);
          }
          const at = ports.clock.now().toISOString();
          const next = datedIfChanged(client, { ...client, screening }, at);
          const changes = screeningAuditChanges(client.screening, screening);
          const events: LoggedEvent[] =
            screening.status === 'ERROR'
              ? []
              : [screeningCompletedEvent(next, { newId: () => ports.ids.uuid(), at })];
          // The names just screened are what later list versions are matched against.
          const index = () =>
            screening.status === 'ERROR'
              ? okAsync<void, never>(undefined)
              : tx.screenedNames.replace(
                  clientId,
                  subjects.map((subject) => ({ ...subject, keys: [...keysOf(subject.name)] })),
                );
          // A failure repeated by a retry changes nothing, and adds no entry.
          const entries: AuditEntry[] =
            changes.length === 0
              ? []
              : [
                  {
                    id: ports.ids.uuid(),
                    clientId,
                    action: 'screening-result',
                    actor: SCREENING_ACTOR,
                    requestId: null,
                    at,
                    changes,
                    documents: [],
                  },
                ];
          return tx.clients
            .updateScreening(clientId, screening, next.updatedAt)
            .andThen(index)
            .andThen(() => (events.length > 0 ? tx.events.append(events) : okAsync(undefined)))
            .andThen(() =>
              events.length > 0 ? tx.webhookJobs.enqueueEventDeliveries(events) : okAsync(undefined),
            )
            .andThen(() =>
              entries.length > 0 ? tx.audit.append(entries, ctx.auditSealer) : okAsync(undefined),
            )
            .map(() => true);
        }),
      )
      // No idempotency claim is completed here: the lock cannot be lost.
      .mapErr(lockLostAsInProgress);

  const monitoring = createScreeningMonitoring(ctx);
  const reindexing = createScreenedNameReindexing(ctx);

  const runJob = (job: ScreeningJob): ResultAsync<ScreeningJobReport, ScreeningJobFailure> => {
    if (job.type === 'index-screened-names') {
      return reindexing
        .runNameIndexing(job)
        .map((indexed): ScreeningJobReport => ({ screened: indexed > 0, hits: 0 }));
    }
    if (job.type === 'monitor-list-change') {
      return monitoring
        .runListChange(job)
        .map(({ candidates, hits }: ListChangeReport) => ({ screened: true, hits, candidates }));
    }
    const provider = ports.screening;
    if (provider === undefined || !isUuid(job.clientId)) return okAsync(nothingScreened);
    return ports.clients.findById(job.clientId).andThen((client) => {
      if (!awaitsScreening(client)) return okAsync(nothingScreened);
      const subjects = screeningSubjectsOf(client);
      return provider
        .screen(subjects)
        .orElse((failure) =>
          // Recorded as ERROR (approval stays refused), and failed so that the engine retries.
          record(client.id, subjects, { ...client.screening, status: 'ERROR' }).andThen(() =>
            errAsync<never, ScreeningJobFailure>(failure),
          ),
        )
        .andThen((matches) => {
          const screening = completedScreening(
            matches,
            ports.clock.now().toISOString(),
            () => ports.ids.uuid(),
            client.screening.hits,
          );
          return record(client.id, subjects, screening).map(
            (written): ScreeningJobReport => ({ screened: written, hits: written ? matches.length : 0 }),
          );
        });
    });
  };

  const resolveHit: ScreeningService['resolveHit'] = (principal, clientId, hitId, body, command) => {
    const parsed = parseRequest(resolveScreeningHitBodySchema, body);
    // Invalid input is refused before the command runs: runCommand releases the claim.
    if (parsed.isErr()) return runCommand(ctx, command, () => errAsync(parsed.error));
    const { decision, reason } = parsed.value;
    return runCommand(ctx, command, (transaction) =>
      isUuid(clientId)
        ? transaction((tx) =>
            tx.clients.findForUpdate(clientId).andThen((client) => {
              // Compliance sees every manager's clients.
              if (client === null) return errAsync(clientNotFound(clientId));
              const changed = changedSinceSeen(command, client);
              if (changed !== undefined) return errAsync(changed);
              // A deleted client's review is over: its hits stay as they were decided.
              if (client.status === 'DELETED') {
                return errAsync(invalidStatus(clientId, client.status, 'RESOLVE_SCREENING_HIT'));
              }
              const screening = client.screening;
              if (screening === null || !screening.hits.some((hit) => hit.id === hitId)) {
                return errAsync(screeningHitNotFound(clientId, hitId));
              }
              const at = ports.clock.now().toISOString();
              const actor = auditActorOf(principal);
              const resolution = { decision, reason, actor: actor.id, at };
              const decided: Screening = {
                ...screening,
                hits: screening.hits.map((hit) => (hit.id === hitId ? { ...hit, resolution } : hit)),
              };
              const next = datedIfChanged(client, { ...client, screening: decided }, at);
              const response = toClientResponse(next);
              return tx.clients
                .updateScreening(clientId, decided, next.updatedAt)
                .andThen(() =>
                  tx.events.append([
                    {
                      managerId: client.managerId,
                      clientId,
                      event: {
                        id: ports.ids.uuid(),
                        type: screeningHitResolvedEventType,
                        apiVersion: CLIENT_EVENT_API_VERSION,
                        createdAt: at,
                        data: { client: response, hitId },
                      },
                    },
                  ]),
                )
                .andThen(() =>
                  tx.audit.append([
                    {
                      id: ports.ids.uuid(),
                      clientId,
                      action: 'screening-resolution',
                      actor,
                      at,
                      changes: screeningAuditChanges(screening, decided),
                      documents: [],
                    },
                  ]),
                )
                .andThen(() => ok(response));
            }),
          )
        : errAsync(clientNotFound(clientId)),
    );
  };

  return {
    runJob,
    resolveHit,
    listChanged: monitoring.listChanged,
    reindexScreenedNames: reindexing.reindexScreenedNames,
  };
};
