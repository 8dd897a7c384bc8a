/**
 * Which of the kit's source files run for one request: V8 precise coverage (node:inspector,
 * `Profiler.startPreciseCoverage`) around one HTTP request to the demo's app on PostgreSQL
 * (embedded) + S3 (s3rver), both started here and stopped at the end. Run with
 * `pnpm coverage:request`; it prints, for each measured request, the files of `packages/` in which
 * at least one function ran, with their lines, and the totals.
 *
 * Measured: one `POST /manager/v1/clients/individuals` naming one uploaded document (keyed), and one
 * compliance `POST /clients/{id}/approve`. Each is measured after the same request has run once
 * (modules loaded, caches and prepared statements warm): what a request costs a running host.
 * Goals (the reading list a newcomer follows for one request): a create ≤ 35 files, an approve ≤ 28.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createOnboardingKit,
  demoIdentities,
  exampleIndividualPayload,
  seedDemoData,
} from '@onboarding-kit/core';
import { openDemoAdapters } from '../examples/demo/src/demo-adapters.js';
import { createDemoApp, demoPaths } from '../examples/demo/src/demo-app.js';
import { readDemoConfig } from '../examples/demo/src/demo-config.js';
import { openTestDatabase } from '../packages/postgres/test-support/embedded-postgres-server.js';
import { freshBucket, s3ClientFor } from '../packages/s3/test/s3-compatible-client.js';
import { startS3rver } from '../packages/s3/test/start-s3-servers.js';

const repositoryRoot = fileURLToPath(new URL('../', import.meta.url));
const goals = { create: 35, approve: 28 } as const;

type ScriptCoverage = {
  readonly url: string;
  readonly functions: readonly { readonly ranges: readonly { readonly count: number }[] }[];
};

/** The repository files (relative paths) in which at least one function ran since the last take. */
const filesThatRan = (scripts: readonly ScriptCoverage[]): string[] =>
  scripts
    .filter(({ url }) => url.startsWith('file://'))
    .filter(({ functions }) => functions.some(({ ranges }) => (ranges[0]?.count ?? 0) > 0))
    .map(({ url }) => relative(repositoryRoot, fileURLToPath(url)))
    .filter((path) => !path.startsWith('..') && !path.includes('node_modules'))
    .sort();

const linesOf = (path: string): number =>
  readFileSync(`${repositoryRoot}${path}`, 'utf8').split('\n').length - 1;

const database = await openTestDatabase();
const s3rver = await startS3rver();
const session = new Session();
session.connect();
let failed = false;
try {
  const s3 = s3ClientFor(s3rver.endpoint);
  const bucket = await freshBucket(s3);
  s3.destroy();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = readDemoConfig({
    DATABASE_URL: database.connectionString,
    S3_BUCKET: bucket,
    S3_ENDPOINT: s3rver.endpoint,
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
  })._unsafeUnwrap();
  const adapters = (
    await openDemoAdapters(config, { storageBaseUrl: `${origin}${demoPaths.storage}`, warn: () => {} })
  )._unsafeUnwrap();
  try {
    const kit = createOnboardingKit(adapters.ports);
    (await seedDemoData(adapters.ports))._unsafeUnwrap();
    server.on('request', createDemoApp({ kit, signedLinks: adapters.signedLinks, logger: console }));

    const call = async (path: string, apiKey: string, body: unknown) => {
      const answer = await fetch(`${origin}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          SERVICE_API_KEY: apiKey,
          'Idempotency-Key': randomUUID(),
        },
        body: JSON.stringify(body),
      });
      const text = await answer.text();
      if (!answer.ok) throw new Error(`POST ${path} answered ${answer.status}: ${text}`);
      return JSON.parse(text);
    };
    const managerKey = demoIdentities.managerA.apiKey;
    const uploaded = async (filename: string) => {
      const { uploads } = await call(`${demoPaths.manager}/uploads/request-batch-upload`, managerKey, {
        filenames: [filename],
      });
      const [link] = uploads;
      const form = new FormData();
      for (const [name, value] of Object.entries(link.fields ?? {})) form.append(name, String(value));
      form.append('file', new Blob([randomBytes(2048)]), filename);
      const put = await fetch(link.uploadUrl, {
        method: link.method,
        ...(link.method === 'POST'
          ? { body: form }
          : { headers: link.headers ?? {}, body: randomBytes(2048) }),
      });
      if (!put.ok) throw new Error(`the upload of ${filename} answered ${put.status}`);
    };
    const create = async (filename: string) => {
      await uploaded(filename);
      return call(
        `${demoPaths.manager}/clients/individuals`,
        managerKey,
        exampleIndividualPayload({ idDocuments: [filename] }),
      );
    };
    const approve = (clientId: string) =>
      call(`${demoPaths.compliance}/clients/${clientId}/approve`, demoIdentities.compliance.apiKey, null);

    await session.post('Profiler.enable');
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    /** The files that ran for `request` alone, after `prepare` (not measured). */
    const measure = async <P>(prepare: () => Promise<P>, request: (prepared: P) => Promise<unknown>) => {
      const prepared = await prepare();
      await session.post('Profiler.takePreciseCoverage'); // resets the counts
      await request(prepared);
      const { result } = await session.post('Profiler.takePreciseCoverage');
      return filesThatRan(result as ScriptCoverage[]);
    };

    // Once each to warm up, then measured.
    const warm = await create('warm-up.pdf');
    await approve(warm.id);
    const payload = exampleIndividualPayload({ idDocuments: ['passport.pdf'] });
    const createdFiles = await measure(
      () => uploaded('passport.pdf'),
      () => call(`${demoPaths.manager}/clients/individuals`, managerKey, payload),
    );
    const approvedFiles = await measure(
      () => create('second.pdf'),
      (client) => approve(client.id),
    );
    await session.post('Profiler.stopPreciseCoverage');

    for (const [label, files, goal] of [
      [
        'POST /manager/v1/clients/individuals with one document (PostgreSQL + S3)',
        createdFiles,
        goals.create,
      ],
      ['POST /compliance/v1/clients/{id}/approve (PostgreSQL)', approvedFiles, goals.approve],
    ] as const) {
      const kitFiles = files.filter((path) => path.startsWith('packages/'));
      const lines = kitFiles.reduce((sum, path) => sum + linesOf(path), 0);
      console.log(`\n## ${label}`);
      for (const path of kitFiles) console.log(`  ${String(linesOf(path)).padStart(5)}  ${path}`);
      const others = files.filter((path) => !path.startsWith('packages/'));
      if (others.length > 0) console.log(`  (outside packages/, not counted: ${others.join(', ')})`);
      const met = kitFiles.length <= goal;
      console.log(
        `${met ? 'goal MET' : 'goal MISSED'}: ${kitFiles.length} source files of packages/ (${lines} lines), goal <= ${goal}`,
      );
      if (!met) failed = true;
    }
  } finally {
    server.close();
    await adapters.close();
  }
} finally {
  session.disconnect();
  await s3rver.stop();
  await database.close();
}
process.exitCode = failed ? 1 : 0;
