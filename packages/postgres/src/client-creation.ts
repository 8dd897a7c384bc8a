import type { AuditEntry, StatusHistoryEntry } from '@onboarding-kit/core';
import type {
  DocumentRecord,
  IdempotencyClaimRef,
  LoggedEvent,
  StoredClient,
} from '@onboarding-kit/core/adapter';
import { childRowsJson, clientValues, reviewValues, screeningValue } from './client-rows.js';
import type { KitTables } from './kit-tables.js';
import {
  auditEntriesFromJson,
  auditEntryInsertColumns,
  auditEntryRowsJson,
  auditEntrySelectValues,
} from './postgres-audit-log.js';
import { documentRowJson, documentRowsInsert } from './postgres-document-index.js';
import { defaultWebhookJobExpirySeconds, screeningQueue, webhookQueue } from './postgres-job-engine.js';
import { preparedStatement } from './prepared-statement.js';
import { type Queryable, statementsPerSchema } from './sql-session.js';

/** Everything a create writes: sent as one statement, so it commits on its own, in one round trip. */
export type ClientCreation = {
  readonly client: StoredClient;
  readonly entry: StatusHistoryEntry;
  documents: DocumentRecord[];
  events: LoggedEvent[];
  /** The events whose managers get a webhook delivery job, when they have an endpoint. */
  deliveries: LoggedEvent[];
  /** Its audit entry (the trail is written with the change). */
  auditEntries: AuditEntry[];
  /** The clients to screen (the created one, when the kit screens): one pg-boss job each. */
  screenings: string[];
  /** The idempotency record the create completes, with its outcome already serialized. */
  completion?: { readonly ref: IdempotencyClaimRef; readonly outcome: string; readonly at: Date };
};

/**
 * One pg-boss job per row of `from` where `where` holds (it names the queue: `queue.name = $n`),
 * written as `boss.send` writes it (the queue's retention, retries and policy; active for at most $30 seconds).
 * Pinned column by column against `boss.send` by packages/postgres/test/webhook-job-enqueue.test.ts.
 */
const pgBossJobInsert = (tables: KitTables, data: string, from: string, where: string): string =>
  `INSERT INTO ${tables.jobSchema}.job (name, data, expire_in, keep_until, retry_limit, retry_delay,
    retry_backoff, dead_letter, policy)
  SELECT queue.name, ${data},
    make_interval(secs => $30),
    now() + coalesce(queue.retention_minutes * interval '1 minute', interval '14 days'),
    coalesce(queue.retry_limit, 2),
    CASE WHEN coalesce(queue.retry_backoff, false) THEN greatest(queue.retry_delay, 1)
      ELSE coalesce(queue.retry_delay, 0) END,
    coalesce(queue.retry_backoff, false), queue.dead_letter, queue.policy
  FROM ${tables.jobSchema}.queue, ${from}
  WHERE ${where}`;

/**
 * The one statement of a create, read top to bottom. Its sub-statements all run, in one snapshot;
 * each insert below `client` reads from `client`, so nothing is written when `client` writes
 * nothing, which happens only when the create completes an idempotency record whose claim was lost
 * (another request took the key over): the statement then answers `created = false`.
 *
 * Foreign keys are checked at the end of the statement, after every row is in.
 *
 * The webhook job is pg-boss's job row written by hand (what `boss.send` writes for the kit's queue,
 * with its retry settings read from pg-boss's queue row): a test compares the two rows, so an
 * upgrade of pg-boss that changes its table fails there.
 */
const creationStatement = statementsPerSchema((tables: KitTables) =>
  preparedStatement(`
WITH completion AS (
  -- $1..$5: the idempotency record the create completes (all NULL when it holds no key).
  UPDATE ${tables.idempotency}
  SET state = 'COMPLETED', outcome = $4::json, completed_at = $5
  WHERE scope = $1 AND idempotency_key = $2 AND token = $3 AND state = 'IN_PROGRESS'
  RETURNING 1
), client AS (
  -- $6..$17, $31, $32 (its review columns) and $34 (its screening): the client; written only if it holds no key or its claim still held it.
  INSERT INTO ${tables.clients} (id, manager_id, client_type, status, company, company_directors_and_ubos,
    individual_profile, individual_source_of_funds, onboarding_resubmission_reason,
    created_at, updated_at, deleted_at, resubmission_requirements, terms_acceptance, screening)
  SELECT $6::uuid, $7, $8, $9, $10::jsonb, $11::jsonb, $12::jsonb, $13::jsonb, $14,
    $15::timestamptz, $16::timestamptz, $17::timestamptz, $31::jsonb, $32::jsonb, $34::jsonb
  WHERE $1::text IS NULL OR EXISTS (SELECT 1 FROM completion)
  RETURNING id
), representatives AS (
  -- $18, $19, $20: its representatives, bank accounts and wallets, as json arrays in their order.
  INSERT INTO ${tables.representatives} (id, client_id, position, first_name, last_name, email, phone,
    job_title, supporting_documents, role, created_at, updated_at, deleted_at)
  SELECT r.id, client.id, r.position, r.first_name, r.last_name, r.email, r.phone, r.job_title,
    r.supporting_documents, r.role, r.created_at, r.updated_at, r.deleted_at
  FROM client, ROWS FROM (jsonb_to_recordset($18::jsonb) AS (id uuid, first_name text, last_name text,
    email text, phone text, job_title text, supporting_documents jsonb, role text,
    created_at timestamptz, updated_at timestamptz, deleted_at timestamptz))
    WITH ORDINALITY AS r(id, first_name, last_name, email, phone, job_title, supporting_documents, role,
      created_at, updated_at, deleted_at, position)
), bank_accounts AS (
  INSERT INTO ${tables.bankAccounts} (id, client_id, position, label, fiat_currency, country_code, type,
    identifiers, third_party_owner_name, third_party_owner_address, third_party_owner_city,
    third_party_owner_postal_code, third_party_owner_country_code, third_party_owner_documents, created_at)
  SELECT b.id, client.id, b.position, b.label, b.fiat_currency, b.country_code, b.type, b.identifiers,
    b.third_party_owner_name, b.third_party_owner_address, b.third_party_owner_city,
    b.third_party_owner_postal_code, b.third_party_owner_country_code, b.third_party_owner_documents,
    b.created_at
  FROM client, ROWS FROM (jsonb_to_recordset($19::jsonb) AS (id uuid, label text, fiat_currency text,
    country_code text, type text, identifiers jsonb, third_party_owner_name text,
    third_party_owner_address text, third_party_owner_city text, third_party_owner_postal_code text,
    third_party_owner_country_code text, third_party_owner_documents jsonb, created_at timestamptz))
    WITH ORDINALITY AS b(id, label, fiat_currency, country_code, type, identifiers, third_party_owner_name,
      third_party_owner_address, third_party_owner_city, third_party_owner_postal_code,
      third_party_owner_country_code, third_party_owner_documents, created_at, position)
), wallets AS (
  INSERT INTO ${tables.wallets} (id, client_id, position, label, blockchain_network, address, created_at)
  SELECT w.id, client.id, w.position, w.label, w.blockchain_network, w.address, w.created_at
  FROM client, ROWS FROM (jsonb_to_recordset($20::jsonb) AS (id uuid, label text, blockchain_network text,
    address text, created_at timestamptz))
    WITH ORDINALITY AS w(id, label, blockchain_network, address, created_at, position)
), history AS (
  -- $21..$25: its first status history entry.
  INSERT INTO ${tables.statusHistory} (client_id, from_status, to_status, reason, actor, at)
  SELECT client.id, $21, $22, $23, $24, $25::timestamptz FROM client
), documents AS (
  -- $26: its document rows; $27: its events (the outbox), in their order.
  ${documentRowsInsert(tables, '$26', 'client')}
), events AS (
  INSERT INTO ${tables.events} (event_id, manager_id, client_id, type, created_at, body)
  SELECT e.event_id, e.manager_id, e.client_id, e.type, e.created_at, e.body
  FROM client, json_to_recordset($27::json) AS e(ordinal integer, event_id uuid, manager_id text,
    client_id uuid, type text, created_at timestamptz, body json)
  ORDER BY e.ordinal
), delivered AS (
  -- $28: the events to deliver; those of managers with a webhook endpoint get one job in the
  -- queue $29 (pg-boss's job row, as boss.send writes it), active for at most $30 seconds.
  -- The endpoint is looked up per event (LATERAL, one probe of webhook_endpoints_by_manager): as a
  -- join, the plan a connection made while the table was empty scanned it whole on every create.
  SELECT jsonb_agg(d.event_id ORDER BY d.ordinal) AS event_ids
  FROM client, jsonb_to_recordset($28::jsonb) AS d(ordinal integer, event_id uuid, manager_id text)
  CROSS JOIN LATERAL (
    SELECT 1 FROM ${tables.webhookEndpoints} endpoint WHERE endpoint.manager_id = d.manager_id LIMIT 1
  ) endpoint
), webhook_job AS (
  ${pgBossJobInsert(tables, "jsonb_build_object('type', 'deliver-events', 'eventIds', delivered.event_ids)", 'delivered', 'queue.name = $29 AND delivered.event_ids IS NOT NULL')}
), screening_job AS (
  -- $35: the screening queue when the client is screened (else NULL: no job), one job per client.
  ${pgBossJobInsert(tables, "jsonb_build_object('type', 'screen-client', 'clientId', client.id)", 'client', 'queue.name = $35')}
), audit AS (
  -- $33: its audit entries.
  INSERT INTO ${tables.auditEntries} ${auditEntryInsertColumns}
  SELECT ${auditEntrySelectValues}
  FROM client, ${auditEntriesFromJson('$33')}
  ORDER BY a.ordinal
)
SELECT EXISTS (SELECT 1 FROM client) AS created`),
);

const eventRows = (events: readonly LoggedEvent[]) =>
  events.map(({ managerId, clientId, event }, ordinal) => ({
    ordinal,
    event_id: event.id,
    manager_id: managerId,
    client_id: clientId,
    type: event.type,
    created_at: event.createdAt,
    body: event,
  }));

/**
 * Sends `creation` as its one statement on `db`: true when it was written, false when nothing was
 * because its idempotency claim was lost.
 */
export const sendClientCreation = async (
  db: Queryable,
  tables: KitTables,
  creation: ClientCreation,
  webhookJobExpirySeconds = defaultWebhookJobExpirySeconds,
): Promise<boolean> => {
  const { client, entry, completion } = creation;
  const result = await db.query<{ created: boolean }>(
    creationStatement(tables)([
      completion?.ref.scope ?? null,
      completion?.ref.key ?? null,
      completion?.ref.token ?? null,
      completion?.outcome ?? null,
      completion?.at ?? null,
      ...clientValues(client),
      ...childRowsJson(client),
      entry.from,
      entry.to,
      entry.reason,
      entry.actor,
      entry.at,
      JSON.stringify(creation.documents.map(documentRowJson)),
      JSON.stringify(eventRows(creation.events)),
      JSON.stringify(
        creation.deliveries.map(({ managerId, event }, ordinal) => ({
          ordinal,
          event_id: event.id,
          manager_id: managerId,
        })),
      ),
      webhookQueue,
      webhookJobExpirySeconds,
      ...reviewValues(client),
      auditEntryRowsJson(creation.auditEntries),
      screeningValue(client),
      creation.screenings.includes(client.id) ? screeningQueue : null,
    ]),
  );
  return result.rows[0]?.created === true;
};
