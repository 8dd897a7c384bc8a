import { randomUUID } from 'node:crypto';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { createOnboardingKit, type OnboardingKit, randomUuids } from '@onboarding-kit/core';
import { nodeTextHashing } from '@onboarding-kit/memory';
import {
  createPostgresAdapters,
  migrate,
  type PostgresJobRunner,
  startPostgresJobRunner,
} from '@onboarding-kit/postgres';
import { createS3DocumentStorage } from '@onboarding-kit/s3';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, loggedInContext } from './browser-session.js';
import { listeningApp, managerUploads, mountConsole, staff } from './console-host.js';
import { exampleListScreening } from './list-screening.js';
import {
  entityCase,
  expectSafeTraffic,
  individualCase,
  type ReviewBackend,
  renderSpecimens,
  reviewInBrowser,
  type SpecimenDocuments,
} from './review-flow.js';

/** Everything beforeAll started, stopped in reverse order whatever fails. */
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

let browser: Browser;
let backend: ReviewBackend;
let documents: SpecimenDocuments;

/** Waits for the job runner to screen the client (a real pg-boss job, polled every half second). */
const screenedBy = (kit: OnboardingKit) => async (clientId: string) => {
  await expect
    .poll(
      async () =>
        (await kit.review.get({ kind: 'compliance', complianceId: 'test' }, clientId))._unsafeUnwrap()
          .screening?.status,
      { timeout: 30_000, interval: 200 },
    )
    .toBe('POSSIBLE_MATCH');
};

beforeAll(async () => {
  browser = await launchChromium();
  cleanups.push(() => browser.close());
  const pool = new pg.Pool({ connectionString: inject('consolePostgresUrl'), max: 8 });
  cleanups.push(() => pool.end());
  const schema = `console_${randomUUID().slice(0, 8)}`;
  (await migrate(pool, { schema }))._unsafeUnwrap();
  const s3 = new S3Client({
    endpoint: inject('consoleS3Endpoint'),
    region: 'us-east-1',
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  cleanups.push(() => s3.destroy());
  const bucket = `console-${randomUUID().slice(0, 13)}`;
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  const kit = createOnboardingKit({
    ...createPostgresAdapters({ pool, schema }),
    documentStorage: createS3DocumentStorage({ client: s3, bucket }),
    clock: { now: () => new Date() },
    ids: randomUuids,
    hashing: nodeTextHashing,
    screening: await exampleListScreening(),
  });
  const runner: PostgresJobRunner = await startPostgresJobRunner({
    pool,
    kit,
    schema,
    pollingIntervalSeconds: 0.5,
    orphanSweepCron: null,
    retentionRedactionCron: null,
  });
  cleanups.push(() => runner.close());
  const host = await listeningApp();
  cleanups.push(() => host.close());
  const manager = { kind: 'manager', managerId: randomUUID() } as const;
  mountConsole(host.app, kit, { [manager.managerId]: 'Morgan Manager' });
  backend = {
    name: 'postgres+s3',
    origin: host.origin,
    kit,
    manager,
    upload: managerUploads(kit, manager),
    screened: screenedBy(kit),
  };
  documents = await renderSpecimens(browser);
});

const alice = { username: 'alice', password: staff.alice.password };

describe('the review console in Chromium, on PostgreSQL and S3', () => {
  it.each([individualCase, entityCase])('reviews the $kind from the queue to verified', async (review) => {
    const { context, observed } = await loggedInContext(browser, alice);
    try {
      const page = await context.newPage();
      // axe-core is left to review-on-memory.test.ts, which checks every view of both cases: the
      // markup is the console's, from the same example clients, whichever back end stores them
      // (here it cost about 9 CPU s of Chromium a review). This file checks the back end's part.
      const verified = await reviewInBrowser(page, backend, review, documents, { accessibility: false });
      expectSafeTraffic(observed, [review.name, review.pdfName, review.pngName, 'unreadable', 'blurred']);
      const trail = (
        await backend.kit.audit.list({ kind: 'compliance', complianceId: 'alice' }, verified.id, {
          limit: '100',
        })
      )._unsafeUnwrap();
      // Each document opened issued a link, audited with the reviewer as the actor.
      expect(trail.data.filter((entry) => entry.action === 'download-links-issued')).toHaveLength(2);
    } finally {
      await context.close();
    }
  });
});
