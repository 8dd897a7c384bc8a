/**
 * One server of the HTTP bench, in its own process so that it has a core to itself while
 * autocannon runs in the parent: `node --import tsx bench/http-target.ts kit|baseline|binding`.
 * Listens on 127.0.0.1 only, prints `{"port":N}` once ready, stops on SIGTERM or when its parent
 * goes away.
 *
 * kit: the demo exactly as `pnpm demo` runs it (memory adapters), with BENCH_PRELOAD_FILES files
 *   `bench-<i>.pdf` put in manager A's temporary storage beforehand, so that every create names a
 *   file of its own and answers 201.
 * baseline: the bare Express app of examples/demo/bench-support: its create answers the client the
 *   kit created once (as `binding` does) with a fresh id and timestamps, its preset fees the demo's
 *   list of manager A as fixed JSON.
 * binding: the demo's Express app over a memory kit with the demo's data, except that
 *   `clients.createIndividual` only runs the payload schema and answers a client the kit created
 *   once (examples/demo/bench-support, `bindingOnlyKit`): what the binding costs without the
 *   create's own work.
 * pg-kit: the demo's Express app over the kit on the PostgreSQL adapters (documents in memory
 *   storage, `BENCH_PRELOAD_FILES` files preloaded as for `kit`), its pool on BENCH_DATABASE_URL in
 *   schema BENCH_PG_SCHEMA (migrated by the parent). No job runner: no webhook endpoint exists.
 * pg-handwritten: the hand-written Express + pg route of examples/demo/bench-support on the same
 *   database and schema.
 * Both PostgreSQL kinds use a pool of BENCH_PG_POOL connections (default 8), whose clients pipeline
 * (node-postgres's `pipeline: true`) unless BENCH_PG_PIPELINE=0.
 */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createOnboardingKit,
  demoIdentities,
  exampleIndividualPayload,
  randomUuids,
  seedDemoData,
  systemClock,
} from '@onboarding-kit/core';
import { createMemoryAdapters, nodeTextHashing } from '@onboarding-kit/memory';
import { createPostgresAdapters } from '@onboarding-kit/postgres';
import { createBaselineApp } from '../examples/demo/bench-support/baseline-app.js';
import { bindingOnlyKit } from '../examples/demo/bench-support/binding-only-kit.js';
import { createHandwrittenPostgresApp } from '../examples/demo/bench-support/handwritten-postgres-app.js';
import { createDemoApp } from '../examples/demo/src/demo-app.js';
import { readDemoConfig } from '../examples/demo/src/demo-config.js';
import { startDemoOrThrow } from '../examples/demo/src/start-demo.js';
import { createPool } from '../packages/postgres/test-support/postgres-pool.js';
import { handwrittenPostgresCreate } from './handwritten-pg-create.js';
import { PRELOADED_FILE_BYTES, preloadedFilename } from './http-preloaded-files.js';

const managerA = demoIdentities.managerA.principal;
const managerAOwner = `manager:${managerA.managerId}`;
const errors: unknown[] = [];
const logger = { error: (message: string, details: unknown) => errors.push({ message, details }) };

/**
 * Prints the port, then stops on SIGTERM, or when the bench that started it goes away without
 * stopping it (its IPC channel closes): a bench that fails leaves no server running.
 */
const announce = (port: number, stop: () => Promise<void>) => {
  process.stdout.write(`${JSON.stringify({ port })}\n`);
  let stopping = false;
  const shutDown = () => {
    if (stopping) return;
    stopping = true;
    void stop().finally(() => {
      if (errors.length > 0) {
        process.stderr.write(`${errors.length} errors logged, first: ${JSON.stringify(errors[0])}\n`);
      }
      process.exit(0);
    });
  };
  process.once('SIGTERM', shutDown);
  process.once('disconnect', shutDown);
};

/** Serves `app` on 127.0.0.1 (a free port) until it is stopped (`announce`). */
const serve = async (app: RequestListener) => {
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  announce((server.address() as AddressInfo).port, async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
};

/** A kit on memory adapters with the demo's data (its keys, fees and clients). */
const seededMemoryKit = async () => {
  const adapters = createMemoryAdapters();
  (await seedDemoData(adapters))._unsafeUnwrap();
  return { adapters, kit: createOnboardingKit(adapters) };
};

const startKit = async () => {
  const config = readDemoConfig({ PORT: '0', HOST: '127.0.0.1' })._unsafeUnwrap();
  // The idempotency phase drives one manager past the default quota of live keys (10,000) on
  // purpose: the bench measures throughput, not the quota.
  const demo = await startDemoOrThrow(config, {
    logger,
    kitOptions: { idempotencyMaxRecordsPerOwner: null },
  });
  const files = Number(process.env.BENCH_PRELOAD_FILES ?? 0);
  const bytes = new Uint8Array(PRELOADED_FILE_BYTES).fill(7);
  for (let index = 0; index < files; index += 1) {
    demo.adapters.memory.testing.putTemporaryFile(managerAOwner, preloadedFilename(index), bytes);
  }
  announce(demo.port, demo.close);
};

/**
 * A memory kit with the demo's data, and a client it created (the bench's payload naming one file),
 * as the create answers it: the spec's 201 body that the binding-only target and the bare route answer.
 */
const kitWithCreatedClient = async () => {
  const seeded = await seededMemoryKit();
  seeded.adapters.testing.putTemporaryFile(
    managerAOwner,
    preloadedFilename(0),
    new Uint8Array(PRELOADED_FILE_BYTES),
  );
  const created = await seeded.kit.clients.createIndividual(
    managerA,
    exampleIndividualPayload({ idDocuments: [preloadedFilename(0)] }),
    {},
  );
  return { ...seeded, createdClient: created._unsafeUnwrap() };
};

const startBindingOnly = async () => {
  const { kit, createdClient } = await kitWithCreatedClient();
  await serve(createDemoApp({ kit: bindingOnlyKit(kit, createdClient), signedLinks: null, logger }));
};

const startBaseline = async () => {
  // The very fee list the kit answers manager A and the very client its create answers, made once.
  const { kit, createdClient } = await kitWithCreatedClient();
  const fees = (await kit.presetFees.list(managerA))._unsafeUnwrap();
  await serve(createBaselineApp(fees, createdClient));
};

const postgresPool = () => {
  const url = process.env.BENCH_DATABASE_URL;
  if (url === undefined) throw new Error('BENCH_DATABASE_URL is not set');
  // Both PostgreSQL kinds get the same pool: clients that pipeline unless BENCH_PG_PIPELINE=0. The
  // hand-written route awaits each statement, so pipelining changes nothing on its side; the kit's
  // transactions send together what they ask for together (docs/decisions.md, "PostgreSQL write path").
  return createPool(url, Number(process.env.BENCH_PG_POOL ?? 8), {
    pipeline: process.env.BENCH_PG_PIPELINE !== '0',
  });
};
const postgresSchema = process.env.BENCH_PG_SCHEMA ?? 'bench_http';

const startPostgresKit = async () => {
  const pool = postgresPool();
  const memory = createMemoryAdapters();
  const ports = {
    ...createPostgresAdapters({ pool, schema: postgresSchema }),
    documentStorage: memory.documentStorage,
    clock: systemClock,
    ids: randomUuids,
    hashing: nodeTextHashing,
  };
  (await seedDemoData(ports))._unsafeUnwrap();
  const kit = createOnboardingKit({ ...ports, options: { idempotencyMaxRecordsPerOwner: null } });
  const files = Number(process.env.BENCH_PRELOAD_FILES ?? 0);
  const bytes = new Uint8Array(PRELOADED_FILE_BYTES).fill(7);
  for (let index = 0; index < files; index += 1) {
    memory.testing.putTemporaryFile(managerAOwner, preloadedFilename(index), bytes);
  }
  await serve(createDemoApp({ kit, signedLinks: null, logger }));
};

const startPostgresHandwritten = async () => {
  const pool = postgresPool();
  await serve(
    createHandwrittenPostgresApp({
      apiKey: demoIdentities.managerA.apiKey,
      managerId: managerA.managerId,
      create: handwrittenPostgresCreate(pool, postgresSchema, nodeTextHashing),
    }),
  );
};

const kind = process.argv[2];
if (kind === 'kit') await startKit();
else if (kind === 'baseline') await startBaseline();
else if (kind === 'binding') await startBindingOnly();
else if (kind === 'pg-kit') await startPostgresKit();
else if (kind === 'pg-handwritten') await startPostgresHandwritten();
else {
  process.stderr.write(
    `usage: http-target.ts kit|baseline|binding|pg-kit|pg-handwritten (got ${String(kind)})\n`,
  );
  process.exit(2);
}
