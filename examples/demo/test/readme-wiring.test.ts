import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { OnboardingKit } from '@onboarding-kit/core';
import { exampleIndividualPayload } from '@onboarding-kit/core';
import type { Express } from 'express';
import type pg from 'pg';
import { afterAll, expect, inject, test } from 'vitest';
import { sendUpload } from '../../../test-support/send-upload.js';
import { countWiringCalls, markedBlock } from '../../../tools/count-wiring-calls.js';
import { openDemoDatabase } from './support/demo-database.js';

/**
 * The README's PostgreSQL + S3 wiring block, run as written: its code is copied into a module of
 * this project and imported, with the environment a host gives it (DATABASE_URL, the AWS SDK's
 * own variables pointing at moto, DOCUMENTS_BUCKET). Then a manager uploads through the presigned
 * link, creates a client over HTTP, and the document is in the bucket; `close` stops the runner.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const withEnvironment = (values: Readonly<Record<string, string>>) => {
  const before = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  Object.assign(process.env, values);
  cleanups.push(() => {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
};

test('the README block wires a kit on PostgreSQL and S3 that creates a client with a document', async () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  expect(countWiringCalls(readme).kitCalls.length).toBeLessThanOrEqual(5);

  const database = await openDemoDatabase();
  cleanups.push(() => database.drop());
  const bucket = `readme-${randomUUID().slice(0, 13)}`;
  const credentials = { accessKeyId: 'readme', secretAccessKey: 'readme' };
  const admin = new S3Client({
    endpoint: inject('demoMotoEndpoint'),
    region: 'us-east-1',
    forcePathStyle: true,
    credentials,
  });
  cleanups.push(() => admin.destroy());
  await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  withEnvironment({
    DATABASE_URL: database.url,
    DOCUMENTS_BUCKET: bucket,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    AWS_ENDPOINT_URL_S3: inject('demoMotoEndpoint'),
    // S3-compatible servers refuse the SDK's default checksums on presigned PUTs.
    AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
    AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
  });

  const directory = join(root, 'examples/demo/.tmp/readme-wiring');
  mkdirSync(directory, { recursive: true });
  const file = join(directory, `wiring-${randomUUID()}.ts`);
  writeFileSync(file, `${markedBlock(readme).code}\nexport { app, close, kit, pool, s3 };\n`);
  cleanups.push(() => rmSync(file, { force: true }));
  const wired = (await import(/* @vite-ignore */ file)) as {
    app: Express;
    close(): Promise<void>;
    kit: OnboardingKit;
    pool: pg.Pool;
    s3: S3Client;
  };
  cleanups.push(() => wired.s3.destroy());
  cleanups.push(() => wired.pool.end());
  cleanups.push(() => wired.close());
  expect(wired.kit.webhooks.hasTransport).toBe(true);

  const server: Server = await new Promise((resolve) => {
    const listening = wired.app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the app is not listening');
  const base = `http://127.0.0.1:${address.port}/onboarding/manager/v1`;
  const managerId = randomUUID();
  (await wired.kit.apiKeys.register('readme-manager-key', { kind: 'manager', managerId }))._unsafeUnwrap();
  const headers = { SERVICE_API_KEY: 'readme-manager-key', 'content-type': 'application/json' };

  const links = await fetch(`${base}/uploads/request-batch-upload`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ filenames: ['passport.pdf'] }),
  });
  expect(links.status).toBe(200);
  const [link] = ((await links.json()) as { uploads: Parameters<typeof sendUpload>[0][] }).uploads;
  if (link === undefined) throw new Error('no upload link');
  expect((await sendUpload(link, '%PDF-1.4 a passport')).status).toBeLessThan(300);

  const created = await fetch(`${base}/clients/individuals`, {
    method: 'POST',
    headers: { ...headers, 'idempotency-key': randomUUID() },
    body: JSON.stringify(exampleIndividualPayload({ idDocuments: ['passport.pdf'] })),
  });
  expect(created.status).toBe(201);
  const client = (await created.json()) as { id: string; individualProfile: { idDocuments: string[] } };
  const [key] = client.individualProfile.idDocuments;
  const objects = await admin.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'documents/' }));
  expect((objects.Contents ?? []).map((object) => object.Key)).toEqual([`documents/${key}`]);
  const stored = await wired.pool.query('SELECT id FROM onboarding_kit.clients WHERE id = $1', [client.id]);
  expect(stored.rows).toEqual([{ id: client.id }]);
});
