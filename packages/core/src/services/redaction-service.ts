import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import { type ClientCommandContext, changedSinceSeen } from '../commands/client-transition.js';
import { runCommand } from '../commands/idempotent-command.js';
import { auditActorOf } from '../domain/audit-entry.js';
import { type StoredClient, toClientResponse } from '../domain/client.js';
import {
  documentKeysOfClient,
  REDACTED_VALUE,
  redactClient,
  redactClientEvent,
} from '../domain/client-redaction.js';
import { clientNotFound, type DomainError, invalidStatus, storageUnavailable } from '../errors.js';
import type { KitContext } from '../kit-context.js';
import type { RecordedOutcome } from '../ports/idempotency-store.js';
import type { CompliancePrincipal } from '../principal.js';
import type { AuditActor } from '../schemas/audit.js';
import { CLIENT_EVENT_API_VERSION, type ClientEvent } from '../schemas/client-events.js';
import type { Client } from '../schemas/client-response.js';
import { isUuid } from '../validation/parse-request.js';

export interface RedactionService {
  /**
   * Erases the personal data of a `DELETED` client (decisions §11) and answers the redacted client;
   * a client already redacted answers as it is. Another status is `InvalidStatus`.
   */
  redact(
    principal: CompliancePrincipal,
    clientId: string,
    context?: ClientCommandContext,
  ): ResultAsync<Client, DomainError>;
  /**
   * The retention job: redacts up to `batchSize` clients deleted longer ago than
   * `retentionAfterDeletionDays`, oldest first, as `system`; resolves to how many it redacted.
   */
  redactExpired(batchSize?: number): ResultAsync<number, DomainError>;
}

const DAY_MS = 24 * 60 * 60_000;
/** Document keys deleted per storage call (one download batch). */
const DELETE_BATCH = 50;
const EVENT_PAGE = 100;
const RETENTION_ACTOR: AuditActor = { kind: 'system', id: 'retention' };

/**
 * Redaction, in an order that survives a crash at any step: the storage objects go first (their
 * deletes are idempotent), then one transaction rewrites the rows, the events, the audit changes
 * and the stored answers and appends the `client.redacted` event and the `redact` audit entry.
 * Until that commits the client is not redacted, so a rerun (by hand or by the job) does it all
 * again and finishes.
 */
export const createRedactionService = (ctx: KitContext): RedactionService => {
  const { ports } = ctx;

  /** Every key the client ever had: those it names now, and those of its `documents.promoted` events. */
  const documentKeysOf = (client: StoredClient): ResultAsync<string[], DomainError> => {
    const keys = new Set(documentKeysOfClient(client));
    const page = (afterPosition: string | undefined): ResultAsync<string[], DomainError> =>
      ports.events
        .listForManager({
          managerId: client.managerId,
          clientId: client.id,
          type: 'documents.promoted',
          limit: EVENT_PAGE,
          ...(afterPosition === undefined ? {} : { afterPosition }),
        })
        .andThen((events) => {
          for (const { event } of events) {
            if (event.type === 'documents.promoted') for (const key of event.data.documents) keys.add(key);
          }
          const last = events.at(-1);
          return events.length < EVENT_PAGE || last === undefined ? okAsync([...keys]) : page(last.position);
        });
    return page(undefined);
  };

  const deleteDocuments = (keys: readonly string[]): ResultAsync<void, DomainError> => {
    if (keys.length === 0) return okAsync(undefined);
    return ports.documentStorage
      .deletePermanent(keys.slice(0, DELETE_BATCH))
      .andThen(() => deleteDocuments(keys.slice(DELETE_BATCH)));
  };

  const redact = (
    clientId: string,
    actor: AuditActor,
    command: ClientCommandContext | undefined,
  ): ResultAsync<Client, DomainError> =>
    runCommand(ctx, command, (transaction) => {
      if (!isUuid(clientId)) return errAsync(clientNotFound(clientId));
      return ports.clients
        .findById(clientId)
        .andThen((found): ResultAsync<StoredClient, DomainError> => {
          if (found === null) return errAsync(clientNotFound(clientId));
          // Checked before the documents go too, not only on the locked row: a stale form erases nothing.
          const changed = changedSinceSeen(command, found);
          if (changed !== undefined) return errAsync(changed);
          if (found.status !== 'DELETED') return errAsync(invalidStatus(clientId, found.status, 'REDACT'));
          return okAsync(found);
        })
        .andThen((found) =>
          found.redactedAt !== null
            ? okAsync(toClientResponse(found))
            : documentKeysOf(found)
                .andThen((keys) => deleteDocuments(keys).map(() => new Set(keys)))
                .andThen((deleted) =>
                  transaction((tx) =>
                    tx.clients.findForUpdate(clientId).andThen((client) => {
                      if (client === null) return errAsync(clientNotFound(clientId));
                      const moved = changedSinceSeen(command, client);
                      if (moved !== undefined) return errAsync(moved);
                      if (client.redactedAt !== null) return okAsync(toClientResponse(client));
                      if (client.status !== 'DELETED') {
                        return errAsync(invalidStatus(clientId, client.status, 'REDACT'));
                      }
                      const at = ports.clock.now().toISOString();
                      const redacted = redactClient({ ...client, updatedAt: at }, at);
                      // The rewrite sees every event of the client; a document the read before
                      // the deletes did not see (the event log holds back events of recent
                      // transactions) fails this run, and a rerun deletes it first.
                      const missed: string[] = [];
                      const rewrite = (event: ClientEvent) => {
                        if (event.type === 'documents.promoted') {
                          missed.push(...event.data.documents.filter((key) => !deleted.has(key)));
                        }
                        return redactClientEvent(event, at);
                      };
                      return tx.clients
                        .redact(redacted)
                        .andThen(() => tx.events.rewriteForClient(clientId, rewrite))
                        .andThen(() =>
                          missed.length === 0
                            ? okAsync(undefined)
                            : errAsync(
                                storageUnavailable('events')(
                                  new Error(`${missed.length} document(s) of the client not deleted yet`),
                                ),
                              ),
                        )
                        .andThen(() => tx.documents.redactForClient(clientId))
                        .andThen(() => tx.audit.redactChanges(clientId))
                        .andThen(() =>
                          tx.idempotencyRecords.rewriteForClient(
                            clientId,
                            (outcome) => redactRecordedOutcome(outcome, clientId, at, documentNames(deleted)),
                            documentNames(deleted),
                          ),
                        )
                        .andThen(() => tx.screenedNames.replace(clientId, []))
                        .andThen(() =>
                          tx.events.append([
                            {
                              managerId: client.managerId,
                              clientId,
                              event: {
                                id: ports.ids.uuid(),
                                type: 'client.redacted',
                                apiVersion: CLIENT_EVENT_API_VERSION,
                                createdAt: at,
                                data: { client: toClientResponse(redacted) },
                              },
                            },
                          ]),
                        )
                        .andThen(() =>
                          tx.audit.append([
                            {
                              id: ports.ids.uuid(),
                              clientId,
                              action: 'redact',
                              actor,
                              at,
                              changes: [],
                              documents: [],
                            },
                          ]),
                        )
                        .map(() => toClientResponse(redacted));
                    }),
                  ),
                ),
        );
    });

  const redactExpired = (batchSize = 20): ResultAsync<number, DomainError> => {
    const before = new Date(
      ports.clock.now().getTime() - ctx.options.retentionAfterDeletionDays * DAY_MS,
    ).toISOString();
    // One client after the other; one that fails does not hold back the others (it is retried at
    // the next run), and the run reports the first failure once all were tried.
    return ports.clients.listDeletedBefore(before, batchSize).andThen((clients) =>
      clients
        .reduce<ResultAsync<{ count: number; failure: DomainError | null }, never>>(
          (done, client) =>
            done.andThen((run) =>
              redact(client.id, RETENTION_ACTOR, undefined)
                .map(() => ({ ...run, count: run.count + 1 }))
                .orElse((failure) => okAsync({ ...run, failure: run.failure ?? failure })),
            ),
          okAsync({ count: 0, failure: null }),
        )
        .andThen(({ count, failure }) => (failure === null ? okAsync(count) : errAsync(failure))),
    );
  };

  return {
    redact: (principal, clientId, command) => redact(clientId, auditActorOf(principal), command),
    redactExpired,
  };
};

/**
 * The client's document keys and the file names it uploaded them under (a key is
 * `<uuid>_<filename>`): what the answers of upload-link and download-link batches name.
 */
const documentNames = (keys: ReadonlySet<string>): string[] => [
  ...new Set([...keys].flatMap((key) => (/^[0-9a-f-]{36}_./i.test(key) ? [key, key.slice(37)] : [key]))),
];

/** Every string of `value` but a `type` tag as `"[redacted]"`: the shape stays, no name or link does. */
const redactStrings = (value: unknown): unknown => {
  if (typeof value === 'string') return REDACTED_VALUE;
  if (Array.isArray(value)) return value.map(redactStrings);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, field]) => [name, name === 'type' ? field : redactStrings(field)]),
  );
};

/** Whether `value` holds one of `names` as a whole string. */
const namesOneOf = (value: unknown, names: readonly string[]): boolean => {
  const text = JSON.stringify(value) ?? '';
  return names.some((name) => text.includes(JSON.stringify(name)));
};

// The stored answers are a port's record, so their redaction lives here, not in the domain (which
// imports no port: tools/test/architecture-claims.test.ts).
/** Every client object in `value` with this id, redacted; the rest as it is. */
const redactClientsIn = (value: unknown, clientId: string, redactedAt: string): unknown => {
  if (Array.isArray(value)) return value.map((item) => redactClientsIn(item, clientId, redactedAt));
  if (typeof value !== 'object' || value === null) return value;
  const object = value as Record<string, unknown>;
  if (object.id === clientId && 'clientType' in object) return redactClient(object as Client, redactedAt);
  return Object.fromEntries(
    Object.entries(object).map(([name, field]) => [name, redactClientsIn(field, clientId, redactedAt)]),
  );
};

/**
 * A stored idempotent answer as redaction leaves it: a kit command's value keeps its shape, with
 * the client redacted as it stood then (a create's key replays the created client, redacted; a
 * delete's the deleted one), and every string `"[redacted]"` when it still names one of
 * `documentNames` (links to the client's files); a refusal names ids and statuses only and stays
 * (one naming the client's files loses its strings but its tag); a host route's body,
 * which the kit cannot read, becomes `"[redacted]"` under its status.
 */
export const redactRecordedOutcome = (
  outcome: RecordedOutcome,
  clientId: string,
  redactedAt: string,
  documentNames: readonly string[] = [],
): RecordedOutcome => {
  switch (outcome.kind) {
    case 'command': {
      // An answer that still names one of the client's files (an upload-link or download-link
      // batch, a download refused for its keys) keeps its shape and no string: its links are
      // long dead (15 minutes) when a retry replays it, and the file names are the client's.
      if (!outcome.ok) {
        return namesOneOf(outcome.error, documentNames)
          ? { ...outcome, error: redactStrings(outcome.error) as typeof outcome.error }
          : outcome;
      }
      const value = redactClientsIn(outcome.value, clientId, redactedAt);
      return { ...outcome, value: namesOneOf(value, documentNames) ? redactStrings(value) : value };
    }
    case 'response':
      return { ...outcome, body: REDACTED_VALUE };
  }
};
