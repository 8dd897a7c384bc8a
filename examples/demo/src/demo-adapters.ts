import { createReadStream } from 'node:fs';
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { OnboardingKitPorts } from '@onboarding-kit/core';
import type { ScreeningProvider } from '@onboarding-kit/core/adapter';
import type { SignedLinkEndpoint } from '@onboarding-kit/express';
import { createMemoryAdapters, type MemoryAdapters } from '@onboarding-kit/memory';
import { createPostgresAdapters, migrate, type PostgresAdapters } from '@onboarding-kit/postgres';
import { createS3DocumentStorage, ensureTemporaryExpiry } from '@onboarding-kit/s3';
import { createListScreeningProvider, loadSanctionsList } from '@onboarding-kit/screening-list';
import { createNodeWebhookTransport } from '@onboarding-kit/webhook-transport';
import { errAsync, okAsync, ResultAsync } from 'neverthrow';
import pg from 'pg';
import type { DemoConfig, S3Settings } from './demo-config.js';
import { type DemoStartFailure, demoStartFailure } from './demo-start-failure.js';

export type PersistenceKind = 'memory' | 'postgres';
export type DocumentStorageKind = 'memory' | 's3';

/** The ports the demo runs on, chosen from its environment. */
export type DemoAdapters = {
  readonly ports: OnboardingKitPorts;
  /** Always there: the clock and ids, every port not replaced, and the hooks tests and benches use. */
  readonly memory: MemoryAdapters;
  /** The memory storage's link endpoint, served at `/storage`; null when documents are in S3. */
  readonly signedLinks: SignedLinkEndpoint | null;
  readonly persistence: PersistenceKind;
  readonly documentStorage: DocumentStorageKind;
  /** The PostgreSQL pool when DATABASE_URL is set (the job runner works on it). */
  readonly pool: pg.Pool | null;
  /** Ends the pool and the S3 client, if any. */
  close(): Promise<void>;
};

export type DemoAdaptersOptions = {
  /** Where the signed-link router is reachable, e.g. `http://localhost:3000/storage`. */
  readonly storageBaseUrl: string;
  /** Told about what the demo goes on without (a bucket that refuses lifecycle rules). */
  readonly warn: (message: string) => void;
};

type OpenedPostgres = { readonly pool: pg.Pool; readonly adapters: PostgresAdapters };
type OpenedS3 = { readonly client: S3Client; readonly storage: OnboardingKitPorts['documentStorage'] };

const openPostgres = (
  databaseUrl: string,
  jobExpirySeconds: number,
): ResultAsync<OpenedPostgres, DemoStartFailure> => {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  // Created before migrating: it also installs the pool's idle-connection error listener.
  const adapters = createPostgresAdapters({ pool, webhookJobExpirySeconds: jobExpirySeconds });
  return migrate(pool)
    .map(() => ({ pool, adapters }))
    .orElse((failure) =>
      ResultAsync.fromSafePromise(pool.end()).andThen(() =>
        errAsync(demoStartFailure('migrate the PostgreSQL database of DATABASE_URL')(failure)),
      ),
    );
};

const s3ClientOf = (settings: S3Settings): S3Client =>
  new S3Client({
    region: settings.region,
    ...(settings.endpoint === null ? {} : { endpoint: settings.endpoint, forcePathStyle: true }),
    ...(settings.credentials === null ? {} : { credentials: settings.credentials }),
    // S3-compatible servers reject the SDK's default CRC checksums on presigned PUTs.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

const openS3 = (
  settings: S3Settings,
  warn: (message: string) => void,
): ResultAsync<OpenedS3, DemoStartFailure> => {
  const client = s3ClientOf(settings);
  const { bucket } = settings;
  // A missing bucket or wrong credentials stop the start, rather than fail the first upload.
  return ResultAsync.fromPromise(
    client.send(new HeadBucketCommand({ Bucket: bucket })),
    demoStartFailure(`reach the S3 bucket ${JSON.stringify(bucket)}`),
  )
    .andThen(() =>
      ensureTemporaryExpiry({ client, bucket }).orElse((failure) => {
        // Some S3-compatible servers have no lifecycle rules; the kit still hides uploads older than
        // 24 h, they are only not deleted by the bucket.
        warn(
          `Could not put the lifecycle rule that empties tmp/ after a day on bucket ${JSON.stringify(bucket)} ` +
            `(${failure.cause instanceof Error ? failure.cause.name : 'unknown error'}); uploads older than 24 h ` +
            'are ignored by the kit but stay in the bucket.',
        );
        return okAsync(null);
      }),
    )
    .map(() => ({ client, storage: createS3DocumentStorage({ client, bucket }) }))
    .orElse((failure) => {
      client.destroy();
      return errAsync(failure);
    });
};

/** The screening of SCREENING_LIST: the list loaded (streamed) once, at start; a bad file stops the start. */
const openScreening = (path: string | null): ResultAsync<ScreeningProvider | null, DemoStartFailure> =>
  path === null
    ? okAsync(null)
    : ResultAsync.fromSafePromise(Promise.resolve())
        .andThen(() => loadSanctionsList(createReadStream(path)))
        .map((list) => createListScreeningProvider({ list }))
        .mapErr(demoStartFailure(`load the sanctions list of SCREENING_LIST (${JSON.stringify(path)})`));

/**
 * Memory adapters for everything, then PostgreSQL for every persistence port when DATABASE_URL is
 * set (migrated first) and S3 for documents when S3_BUCKET is set. The clock and ids stay the
 * memory package's system clock and random UUIDs.
 */
export const openDemoAdapters = (
  config: DemoConfig,
  options: DemoAdaptersOptions,
): ResultAsync<DemoAdapters, DemoStartFailure> => {
  const memory = createMemoryAdapters({ publicBaseUrl: options.storageBaseUrl });
  return openScreening(config.screeningList).andThen((screening) =>
    openPersistenceAndStorage(config, options, memory, screening),
  );
};

const openPersistenceAndStorage = (
  config: DemoConfig,
  options: DemoAdaptersOptions,
  memory: MemoryAdapters,
  screening: ScreeningProvider | null,
): ResultAsync<DemoAdapters, DemoStartFailure> => {
  const postgres: ResultAsync<OpenedPostgres | null, DemoStartFailure> =
    config.databaseUrl === null
      ? okAsync(null)
      : openPostgres(config.databaseUrl, config.webhookJobExpirySeconds);
  return postgres.andThen((opened) => {
    const s3: ResultAsync<OpenedS3 | null, DemoStartFailure> =
      config.s3 === null ? okAsync(null) : openS3(config.s3, options.warn);
    return s3
      .orElse((failure) =>
        (opened === null ? okAsync(undefined) : ResultAsync.fromSafePromise(opened.pool.end())).andThen(() =>
          errAsync(failure),
        ),
      )
      .map((s3Opened): DemoAdapters => {
        const { signedLinks: _signedLinks, testing: _testing, hashing, ...memoryPorts } = memory;
        return {
          ports: {
            ...memoryPorts,
            // Memory mode plugs Node's SHA-256; on PostgreSQL the demo hashes as a PostgreSQL host
            // does when it plugs none (core's portable one), so its create reads no memory file.
            ...(opened === null ? { hashing } : {}),
            // Real HTTP delivery (the memory adapters' default transport only records).
            webhookTransport: createNodeWebhookTransport(),
            ...(opened === null ? {} : opened.adapters),
            ...(s3Opened === null ? {} : { documentStorage: s3Opened.storage }),
            ...(screening === null ? {} : { screening }),
          },
          memory,
          signedLinks: s3Opened === null ? memory.signedLinks : null,
          persistence: opened === null ? 'memory' : 'postgres',
          documentStorage: s3Opened === null ? 'memory' : 's3',
          pool: opened?.pool ?? null,
          close: async () => {
            s3Opened?.client.destroy();
            await opened?.pool.end();
          },
        };
      });
  });
};
