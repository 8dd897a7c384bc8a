import {
  runApiKeyStoreContract,
  runAuditLogContract,
  runClientRepositoryContract,
  runDocumentIndexContract,
  runEventLogContract,
  runIdempotencyStoreContract,
  runPresetFeeRepositoryContract,
  runReviewQueueContract,
  runScreenedNameIndexContract,
  runScreeningJobQueueContract,
  runWebhookDeliveryStoreContract,
  runWebhookEndpointStoreContract,
  runWebhookJobQueueContract,
} from '@onboarding-kit/contract-tests';
import type { AuditEntry } from '@onboarding-kit/core';
import type { IndexedScreeningName, ListChangeJob, WebhookJob } from '@onboarding-kit/core/adapter';
import { afterAll, beforeAll } from 'vitest';
import { screeningQueue, webhookQueue } from '../src/postgres-job-engine.js';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';
import { rawSqlInspector } from './raw-sql-inspector.js';

// One migrated schema for the file: every suite uses random ids and scopes, so tests share it.
let database: MigratedDatabase;
let inspect: ReturnType<typeof rawSqlInspector>;
beforeAll(async () => {
  database = await openMigratedDatabase();
  inspect = rawSqlInspector(database.pool, database.tables);
});
afterAll(() => database.close());

runClientRepositoryContract({
  name: 'postgres',
  setup: async () => ({
    clients: database.adapters.clients,
    unitOfWork: database.adapters.unitOfWork,
    documents: database.adapters.documentIndex,
    idempotency: database.adapters.idempotency,
    inspect: {
      readClient: inspect.readClient,
      readStatusHistory: inspect.readStatusHistory,
      readDocumentRecord: inspect.readDocumentRecord,
    },
  }),
});

// The queue is every manager's and a turn depends on who waits: each test gets a database of its own.
runReviewQueueContract({
  name: 'postgres',
  setup: async () => {
    const own = await openMigratedDatabase();
    const ownInspect = rawSqlInspector(own.pool, own.tables);
    return {
      clients: own.adapters.clients,
      unitOfWork: own.adapters.unitOfWork,
      documents: own.adapters.documentIndex,
      idempotency: own.adapters.idempotency,
      inspect: {
        readClient: ownInspect.readClient,
        readStatusHistory: ownInspect.readStatusHistory,
        readDocumentRecord: ownInspect.readDocumentRecord,
      },
      teardown: () => own.close(),
    };
  },
});

runDocumentIndexContract({
  name: 'postgres',
  setup: async () => ({
    documents: database.adapters.documentIndex,
    inspect: { readDocumentRecord: inspect.readDocumentRecord, readUploadClaim: inspect.readUploadClaim },
    // documents.client_id references clients(id).
    prepareClient: ({ clientId, managerId }) => inspect.insertBareClient(clientId, managerId),
  }),
});

runScreenedNameIndexContract({
  name: 'postgres',
  setup: async () => ({
    screenedNames: database.adapters.screenedNames,
    unitOfWork: database.adapters.unitOfWork,
    // screened_names.client_id references clients(id).
    prepareClient: (clientId) => inspect.insertBareClient(clientId, crypto.randomUUID()),
    inspect: {
      readNames: async (clientId) =>
        (
          await database.pool.query<IndexedScreeningName & { birth_date: string | null }>(
            `SELECT field, name, kind, country, birth_date, keys FROM ${database.tables.screenedNames} WHERE client_id = $1 ORDER BY field`,
            [clientId],
          )
        ).rows.map(({ field, name, kind, country, birth_date, keys }) => ({
          field,
          name,
          kind,
          ...(country == null ? {} : { country }),
          ...(birth_date == null ? {} : { birthDate: birth_date }),
          keys,
        })),
      readListChangeJobs: async (version) =>
        (
          await database.pool.query<{ data: ListChangeJob }>(
            `SELECT data FROM ${database.tables.jobSchema}.job
             WHERE name = $1 AND data->>'type' = 'monitor-list-change' AND data->>'version' = $2
             ORDER BY (data->>'batch')::int`,
            [screeningQueue, version],
          )
        ).rows.map((row) => row.data),
    },
  }),
});

runIdempotencyStoreContract({
  name: 'postgres',
  setup: async () => ({
    idempotency: database.adapters.idempotency,
    inspect: { readRecord: inspect.readIdempotencyRecord },
  }),
});

runPresetFeeRepositoryContract({
  name: 'postgres',
  setup: async () => ({
    presetFees: database.adapters.presetFees,
    inspect: { readPresetFee: inspect.readPresetFee },
  }),
});

runApiKeyStoreContract({
  name: 'postgres',
  setup: async () => ({
    apiKeys: database.adapters.apiKeys,
    inspect: { dumpStoredText: inspect.dumpApiKeys },
  }),
});

runEventLogContract({
  name: 'postgres',
  setup: async () => ({
    events: database.adapters.events,
    unitOfWork: database.adapters.unitOfWork,
    clients: database.adapters.clients,
  }),
});

runAuditLogContract({
  name: 'postgres',
  setup: async () => ({
    audit: database.adapters.audit,
    unitOfWork: database.adapters.unitOfWork,
    inspect: {
      // Plain SELECT, the timestamp through a Date (not the adapter's SQL rendering of it).
      readEntries: async (clientId) =>
        (
          await database.pool.query<{
            id: string;
            client_id: string;
            action: AuditEntry['action'];
            actor_kind: AuditEntry['actor']['kind'];
            actor_id: string;
            request_id: string | null;
            at: Date;
            changes: AuditEntry['changes'];
            documents: string[];
          }>(`SELECT * FROM ${database.tables.auditEntries} WHERE client_id = $1 ORDER BY position`, [
            clientId,
          ])
        ).rows.map((row) => ({
          id: row.id,
          clientId: row.client_id,
          action: row.action,
          actor: { kind: row.actor_kind, id: row.actor_id },
          requestId: row.request_id,
          at: row.at.toISOString(),
          changes: row.changes,
          documents: row.documents,
        })),
      // As a role that can turn triggers off would: the chain columns stay as they were.
      forgeEntry: async (entryId, forged) => {
        const connection = await database.ownerPool.connect();
        try {
          await connection.query('BEGIN');
          await connection.query('SET LOCAL session_replication_role = replica');
          if (forged === null) {
            await connection.query(`DELETE FROM ${database.tables.auditEntries} WHERE id = $1`, [entryId]);
          } else {
            await connection.query(
              `UPDATE ${database.tables.auditEntries}
               SET changes = coalesce($2::json, changes), actor_kind = coalesce($3, actor_kind),
                 actor_id = coalesce($4, actor_id), at = coalesce($5::timestamptz, at),
                 documents = coalesce($6::text[], documents)
               WHERE id = $1`,
              [
                entryId,
                forged.changes === undefined ? null : JSON.stringify(forged.changes),
                forged.actor?.kind ?? null,
                forged.actor?.id ?? null,
                forged.at ?? null,
                forged.documents ?? null,
              ],
            );
          }
          await connection.query('COMMIT');
        } catch (failure) {
          await connection.query('ROLLBACK');
          throw failure;
        } finally {
          connection.release();
        }
      },
      // As the trigger of migration 0007 chained them: no documents digest, the hash recomputed by
      // the table's own function (which hashes a row without a digest as version 1).
      rechainAsVersion1: async (clientId) => {
        const connection = await database.ownerPool.connect();
        const entries = database.tables.auditEntries;
        try {
          await connection.query('BEGIN');
          await connection.query('SET LOCAL session_replication_role = replica');
          const rows = await connection.query<{ id: string }>(
            `SELECT id FROM ${entries} WHERE client_id = $1 ORDER BY sequence`,
            [clientId],
          );
          let previousHash: string | null = null;
          for (const { id } of rows.rows) {
            await connection.query(
              `UPDATE ${entries} SET previous_hash = $2, documents_digest = NULL WHERE id = $1`,
              [id, previousHash],
            );
            const rehashed = await connection.query<{ hash: string }>(
              `UPDATE ${entries} AS e SET hash = ${database.tables.quotedSchema}.audit_entry_hash(e)
               WHERE id = $1 RETURNING hash`,
              [id],
            );
            previousHash = rehashed.rows[0]?.hash ?? null;
          }
          await connection.query('COMMIT');
        } catch (failure) {
          await connection.query('ROLLBACK');
          throw failure;
        } finally {
          connection.release();
        }
      },
      markClientRedacted: async (clientId) => {
        await database.pool.query(
          `INSERT INTO ${database.tables.clients}
             (id, manager_id, client_type, status, created_at, updated_at, deleted_at, redacted_at)
           VALUES ($1, 'contract-suite', 'INDIVIDUAL', 'DELETED', now(), now(), now(), now())`,
          [clientId],
        );
      },
    },
  }),
});

const webhookStores = async () => ({
  endpoints: database.adapters.webhookEndpoints,
  deliveries: database.adapters.webhookDeliveries,
  unitOfWork: database.adapters.unitOfWork,
  inspect: {
    // The jobs pg-boss holds for a runner: created or waiting for a retry.
    listJobs: async () =>
      (
        await database.pool.query<{ data: WebhookJob; start_after: Date }>(
          `SELECT data, start_after FROM ${database.tables.jobSchema}.job
           WHERE name = $1 AND state IN ('created', 'retry')`,
          [webhookQueue],
        )
      ).rows.map((row) => ({ job: row.data, runAt: row.start_after })),
  },
});

runWebhookEndpointStoreContract({ name: 'postgres', setup: webhookStores });
runWebhookDeliveryStoreContract({ name: 'postgres', setup: webhookStores });
runWebhookJobQueueContract({ name: 'postgres', setup: webhookStores });
runScreeningJobQueueContract({
  name: 'postgres',
  setup: async () => ({
    unitOfWork: database.adapters.unitOfWork,
    inspect: {
      // The jobs pg-boss holds for a runner: created or waiting for a retry.
      listQueuedClientIds: async () =>
        (
          await database.pool.query<{ client_id: string }>(
            `SELECT data ->> 'clientId' AS client_id FROM ${database.tables.jobSchema}.job
             WHERE name = $1 AND state IN ('created', 'retry') AND data ->> 'type' = 'screen-client'`,
            [screeningQueue],
          )
        ).rows.map((row) => row.client_id),
    },
  }),
});
