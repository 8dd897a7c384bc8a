import { randomUUID } from 'node:crypto';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import {
  type CompliancePrincipal,
  createOnboardingKit,
  exampleIndividualPayload,
  type ManagerPrincipal,
  randomUuids,
} from '@onboarding-kit/core';
import {
  storageUnavailable,
  type UnitOfWork,
  type WebhookRequest,
  type WebhookTransport,
} from '@onboarding-kit/core/adapter';
import { nodeTextHashing } from '@onboarding-kit/memory';
import { createPostgresAdapters, migrate, startPostgresJobRunner } from '@onboarding-kit/postgres';
import { createS3DocumentStorage } from '@onboarding-kit/s3';
import { errAsync, okAsync } from 'neverthrow';
import pg from 'pg';
import { afterAll, expect, inject, test } from 'vitest';
import { sendUpload } from '../../../test-support/send-upload.js';
import { openDemoDatabase } from './support/demo-database.js';

/**
 * The canary of decisions §11 in the production wiring (PostgreSQL, S3 on moto): a client whose
 * names, address, reasons and document bytes carry a unique marker goes through the whole flow,
 * is deleted and redacted; then the marker is in no answer of the kit, in no row of any table of
 * the database (every schema, each row cast to text) and in no object of the bucket.
 */
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const ok = <T>(value: T): T => value;
const fail = (error: unknown): never => {
  throw new Error(`unexpected failure: ${JSON.stringify(error)}`);
};

const compliance: CompliancePrincipal = { kind: 'compliance', complianceId: 'officer-canary' };

test('after redaction the marker is nowhere: answers, database dump, bucket', async () => {
  const database = await openDemoDatabase();
  cleanups.push(() => database.drop());
  const pool = new pg.Pool({ connectionString: database.url, max: 10 });
  cleanups.push(() => pool.end());
  (await migrate(pool)).match(ok, fail);
  const s3 = new S3Client({
    endpoint: inject('demoMotoEndpoint'),
    region: 'us-east-1',
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  cleanups.push(() => s3.destroy());
  const bucket = `redaction-${randomUUID().slice(0, 13)}`;
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  const sent: WebhookRequest[] = [];
  const webhookTransport: WebhookTransport = {
    send: (request) => {
      sent.push(request);
      return okAsync({ type: 'answered', statusCode: 204, retryAfter: null });
    },
  };
  const ports = {
    ...createPostgresAdapters({ pool }),
    documentStorage: createS3DocumentStorage({ client: s3, bucket }),
    clock: { now: () => new Date() },
    ids: randomUuids,
    hashing: nodeTextHashing,
    webhookTransport,
  };
  const kit = createOnboardingKit(ports);
  // The same kit in a process that dies after its storage deletes: its transaction never commits.
  const dying: UnitOfWork = {
    transaction: (work) =>
      ports.unitOfWork.transaction((stores) =>
        work(stores).andThen(() => errAsync(storageUnavailable('postgres')(new Error('killed')))),
      ),
  };
  const dyingKit = createOnboardingKit({ ...ports, unitOfWork: dying });
  const runner = await startPostgresJobRunner({
    pool,
    kit,
    orphanSweepCron: null,
    retentionRedactionCron: null,
  });
  cleanups.push(() => runner.close());
  const manager: ManagerPrincipal = { kind: 'manager', managerId: randomUUID() };
  const marker = `canary-${randomUUID()}`;
  (await kit.webhooks.createEndpoint(manager, { url: 'https://portal.example.com/hooks' })).match(ok, fail);

  const upload = async (filename: string) => {
    const [link] = (await kit.documents.requestUploadBatch(manager, { filenames: [filename] })).match(
      ok,
      fail,
    ).uploads;
    if (link === undefined) throw new Error('no upload link');
    const put = await sendUpload(link, `identity document of ${marker}`);
    expect(put.status).toBeLessThan(300);
  };
  const payload = (filename: string) => {
    const example = exampleIndividualPayload({ idDocuments: [filename] });
    return {
      ...example,
      profile: {
        ...example.profile,
        firstName: `Ada ${marker}`,
        lastName: `Lovelace ${marker}`,
        address: `12 ${marker} Road`,
      },
    };
  };

  // Upload, create (with an Idempotency-Key: its stored answer holds the client), resubmission.
  await upload('passport.pdf');
  const claim = (
    await kit.idempotency.claim({ scope: 'canary', owner: 'manager:canary', key: 'create-1', body: {} })
  ).match(ok, fail);
  if (claim.type !== 'Claimed') throw new Error('expected a claim');
  const created = (
    await kit.clients.createIndividual(manager, payload('passport.pdf'), { claim: claim.ref })
  ).match(ok, fail);
  (
    await kit.compliance.requestResubmission(compliance, created.id, {
      reason: `The name ${marker} does not match`,
      requirements: [{ field: 'profile.lastName', code: 'INFORMATION_INCORRECT', message: `Not ${marker}` }],
    })
  ).match(ok, fail);
  await upload('passport-2.pdf');
  const resubmitted = (
    await kit.clients.resubmitIndividual(manager, created.id, payload('passport-2.pdf'))
  ).match(ok, fail);
  const keys = [
    ...(created.individualProfile?.idDocuments ?? []),
    ...(resubmitted.individualProfile?.idDocuments ?? []),
  ];
  // Download.
  const links = (await kit.documents.requestDownloadBatch(manager, { filenames: keys })).match(ok, fail);
  for (const link of links.downloads) expect(await (await fetch(link.downloadUrl)).text()).toContain(marker);
  (await kit.compliance.approve(compliance, created.id)).match(ok, fail);
  (
    await kit.compliance.markTermsSigned(compliance, created.id, {
      termsVersion: '2026-01',
      signedAt: new Date().toISOString(),
      signatoryName: `Ada ${marker}`,
      ipAddress: '203.0.113.7',
      userAgent: `agent ${marker}`,
    })
  ).match(ok, fail);
  (await kit.clients.delete(manager, created.id)).match(ok, fail);
  // The webhook deliveries of the flow were made (the receiver's copy is the receiver's).
  await expect
    .poll(() => sent.some((request) => request.body.includes(marker)), { timeout: 20_000 })
    .toBe(true);

  const dump = async (): Promise<string> => {
    const tables = await pool.query<{ table_schema: string; table_name: string }>(
      `SELECT table_schema, table_name FROM information_schema.tables
       WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    const texts: string[] = [];
    for (const { table_schema, table_name } of tables.rows) {
      const rows = await pool.query<{ row: string }>(
        `SELECT t::text AS row FROM ${pg.escapeIdentifier(table_schema)}.${pg.escapeIdentifier(table_name)} t`,
      );
      texts.push(...rows.rows.map(({ row }) => row));
    }
    return texts.join('\n');
  };
  const bucketText = async (): Promise<string> => {
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket }));
    const texts: string[] = [];
    for (const object of listed.Contents ?? []) {
      const got = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: object.Key }));
      texts.push(`${object.Key} ${await got.Body?.transformToString()}`);
    }
    return texts.join('\n');
  };
  // The canary is alive before the redaction: each search can see the marker.
  expect(await dump()).toContain(marker);
  expect(await bucketText()).toContain(marker);

  // A crash between the storage deletes and the commit: the objects are gone, the rows not yet.
  expect((await dyingKit.redaction.redact(compliance, created.id)).isErr()).toBe(true);
  expect(await bucketText()).not.toContain(marker);
  expect(await dump()).toContain(marker);
  // The rerun finishes it.
  const redacted = (await kit.redaction.redact(compliance, created.id)).match(ok, fail);
  expect(redacted).toMatchObject({ status: 'DELETED', individualProfile: null, termsAcceptance: null });
  expect((await kit.redaction.redact(compliance, created.id)).match(ok, fail)).toEqual(redacted);

  const answers = [
    (await kit.clients.get(manager, created.id)).match(ok, fail),
    (await kit.clients.statusHistory(manager, created.id)).match(ok, fail),
    (await kit.events.list(manager, { limit: '100' })).match(ok, fail),
    (await kit.audit.list(compliance, created.id, {})).match(ok, fail),
    (await kit.clients.list(manager, { limit: '100' })).match(ok, fail),
  ];
  for (const answer of answers) expect(JSON.stringify(answer)).not.toContain(marker);
  expect(
    (await kit.documents.requestDownloadBatch(manager, { filenames: keys }))._unsafeUnwrapErr().type,
  ).toBe('DocumentNotFound');
  expect(await dump()).not.toContain(marker);
  expect(await bucketText()).not.toContain(marker);
});
