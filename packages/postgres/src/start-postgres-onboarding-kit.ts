import { createHash } from 'node:crypto';
import {
  createOnboardingKit,
  type OnboardingKit,
  type OnboardingKitOptions,
  type OnboardingKitPorts,
} from '@onboarding-kit/core';
import type { TextHashing } from '@onboarding-kit/core/adapter';
import type { Pool } from 'pg';
import { grantServingRole } from './grant-serving-role.js';
import { migrate } from './migrate.js';
import { createPostgresAdapters, type PostgresAdapters } from './postgres-adapters.js';
import {
  type PostgresJobRunner,
  type PostgresJobRunnerOptions,
  startPostgresJobRunner,
} from './postgres-job-runner.js';

/**
 * What a host on PostgreSQL passes: the pool, and the ports that are not persistence (document
 * storage; a webhook transport to deliver webhooks; optionally screening, clock, ids, hashing).
 */
export type PostgresOnboardingKitOptions = Omit<OnboardingKitPorts, keyof PostgresAdapters> & {
  /** A node-postgres pool; it stays the host's (end it after `close`). */
  readonly pool: Pool;
  /** Schema of the kit's tables (default `onboarding_kit`), migrated at start. */
  readonly schema?: string;
  /**
   * A pool of the role that owns the kit's tables, when `pool`'s role is another: the schema is
   * migrated through it, then `pool`'s role is granted what serving needs and no more
   * (`grantServingRole`), so that the credentials the kit serves with cannot disable the audit
   * trail's triggers nor delete, truncate or rewrite an entry. Without it, `pool` migrates and
   * owns the tables. The two pools' roles must differ.
   */
  readonly migrationPool?: Pool;
  /** The kit's options, as `createOnboardingKit` takes them. */
  readonly options?: OnboardingKitOptions;
  /** As `createPostgresAdapters` takes it (default 60 s). */
  readonly webhookJobExpirySeconds?: number;
  /**
   * The job runner's options (`startPostgresJobRunner`); `false` starts none in this process, for
   * a process that only serves requests while others work the jobs.
   */
  readonly jobRunner?: Omit<PostgresJobRunnerOptions, 'pool' | 'kit' | 'schema'> | false;
};

export type PostgresOnboardingKit = {
  readonly kit: OnboardingKit;
  /** The persistence ports the kit runs on, for a host that also reads them. */
  readonly adapters: PostgresAdapters;
  /** The job runner started, or null with `jobRunner: false`. */
  readonly runner: PostgresJobRunner | null;
  /** Stops the job runner and waits for the jobs in hand; the pool may be ended once it resolves. */
  close(): Promise<void>;
};

/** Node's own SHA-256: this package runs on Node only, and it is about 3× core's portable one. */
const nodeSha256: TextHashing = {
  sha256Hex: (text) => createHash('sha256').update(text, 'utf8').digest('hex'),
};

/** Grants the serving pool's role what it needs through the owner's pool; refuses one role for both. */
const grantPoolsRole = async (owner: Pool, serving: Pool, schema: string | undefined): Promise<void> => {
  const roleOf = async (pool: Pool) =>
    (await pool.query<{ role: string }>('SELECT current_user AS role')).rows[0]?.role;
  const [ownerRole, role] = await Promise.all([roleOf(owner), roleOf(serving)]);
  if (role === undefined || role === ownerRole) {
    throw new Error(
      'onboarding-kit: migrationPool and pool connect as the same role; serve as a role that does not own the tables',
    );
  }
  const granted = await grantServingRole(owner, { role, ...(schema === undefined ? {} : { schema }) });
  if (granted.isErr()) {
    throw new Error(`onboarding-kit: could not grant the serving role (${granted.error.type})`, {
      cause: granted.error,
    });
  }
};

/**
 * The kit on PostgreSQL in one call: migrates the schema (safe when instances start together),
 * builds every persistence port on the pool, wires the kit with the ports the host passes, and
 * starts the job runner (webhook delivery, screening, the purge, the orphan sweep, the retention
 * redaction). Each step is also exported on its own (`migrate`, `createPostgresAdapters`,
 * `createOnboardingKit`, `startPostgresJobRunner`) for a host that wires them itself.
 *
 * A failed migration rejects with an Error whose `cause` is the `MigrationFailed` or
 * `StorageUnavailable`; the runner's refusals reject as `startPostgresJobRunner` does (a kit with
 * webhook endpoints and no `webhookTransport`). Nothing is left running when it rejects.
 */
export const startPostgresOnboardingKit = async ({
  pool,
  schema,
  migrationPool,
  options,
  webhookJobExpirySeconds,
  jobRunner = {},
  ...ports
}: PostgresOnboardingKitOptions): Promise<PostgresOnboardingKit> => {
  // Made before migrating: it also installs the pool's idle-connection error listener.
  const adapters = createPostgresAdapters({
    pool,
    ...(schema === undefined ? {} : { schema }),
    ...(webhookJobExpirySeconds === undefined ? {} : { webhookJobExpirySeconds }),
  });
  const migrated = await migrate(migrationPool ?? pool, schema === undefined ? {} : { schema });
  if (migrated.isErr()) {
    throw new Error(`onboarding-kit: could not migrate the database (${migrated.error.type})`, {
      cause: migrated.error,
    });
  }
  if (migrationPool !== undefined) await grantPoolsRole(migrationPool, pool, schema);
  const kit = createOnboardingKit({
    ...adapters,
    hashing: nodeSha256,
    ...ports,
    ...(options === undefined ? {} : { options }),
  });
  const runner =
    jobRunner === false
      ? null
      : await startPostgresJobRunner({
          ...jobRunner,
          pool,
          kit,
          ...(schema === undefined ? {} : { schema }),
        });
  return { kit, adapters, runner, close: async () => runner?.close() };
};
