import { randomBytes, randomUUID } from 'node:crypto';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import {
  createOnboardingKit,
  exampleIndividualPayload,
  type ManagerPrincipal,
  randomUuids,
} from '@onboarding-kit/core';
import { nodeTextHashing } from '@onboarding-kit/memory';
import { createPostgresAdapters, migrate } from '@onboarding-kit/postgres';
import { createS3DocumentStorage } from '@onboarding-kit/s3';
import pg from 'pg';
import { afterAll, expect, inject, test } from 'vitest';
import { sendUpload } from '../../../test-support/send-upload.js';
import { openDemoDatabase } from './support/demo-database.js';

/**
 * One upload is used by at most one command, in the production wiring: the document index on
 * PostgreSQL, the documents in S3 (moto). Parallel creates naming one uploaded file make one client
 * and one permanent object; the others are refused at the field. The bucket and tables are read
 * directly.
 */
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

test('20 parallel creates naming one file, PostgreSQL index and S3 storage: one client, one object', async () => {
  const database = await openDemoDatabase();
  cleanups.push(() => database.drop());
  const pool = new pg.Pool({ connectionString: database.url, max: 20 });
  cleanups.push(() => pool.end());
  (await migrate(pool))._unsafeUnwrap();
  const s3 = new S3Client({
    endpoint: inject('demoMotoEndpoint'),
    region: 'us-east-1',
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  cleanups.push(() => s3.destroy());
  const bucket = `one-use-${randomUUID().slice(0, 13)}`;
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  const kit = createOnboardingKit({
    ...createPostgresAdapters({ pool }),
    documentStorage: createS3DocumentStorage({ client: s3, bucket }),
    clock: { now: () => new Date() },
    ids: randomUuids,
    hashing: nodeTextHashing,
  });
  const manager: ManagerPrincipal = { kind: 'manager', managerId: randomUUID() };

  const [link] = (
    await kit.documents.requestUploadBatch(manager, { filenames: ['passport.pdf'] })
  )._unsafeUnwrap().uploads;
  if (link === undefined) throw new Error('no upload link');
  const uploaded = await sendUpload(link, randomBytes(3_000));
  expect(uploaded.status).toBeLessThan(300);

  const payload = exampleIndividualPayload({ idDocuments: ['passport.pdf'] });
  const outcomes = await Promise.all(
    Array.from({ length: 20 }, () => kit.clients.createIndividual(manager, payload)),
  );
  const created = outcomes.flatMap((outcome) => (outcome.isOk() ? [outcome.value] : []));
  console.log(`s3 (moto) + postgres index, 20 parallel creates: ${created.length} created`);
  expect(created).toHaveLength(1);
  for (const outcome of outcomes) {
    if (outcome.isErr()) {
      expect(outcome.error).toMatchObject({
        type: 'ValidationFailed',
        parameterErrors: {
          'profile.idDocuments[0]': [
            'File "passport.pdf" is used by another request: upload it again to use it here',
          ],
        },
      });
    }
  }
  const objects = async (prefix: string) =>
    ((await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }))).Contents ?? []).map(
      (object) => object.Key,
    );
  const [key] = created[0]?.individualProfile?.idDocuments ?? [];
  expect(await objects('documents/')).toEqual([`documents/${key}`]);
  // The upload is gone from the temporary area; the link's empty marker stays until the link
  // expires (the per-owner bound counts it: packages/s3/README.md).
  expect((await objects('tmp/')).filter((object) => !object?.includes('/upload-links/'))).toEqual([]);
  const rows = await pool.query('SELECT key FROM onboarding_kit.documents WHERE manager_id = $1', [
    manager.managerId,
  ]);
  expect(rows.rows).toEqual([{ key }]);
});
