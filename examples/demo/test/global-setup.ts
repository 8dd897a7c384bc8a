import type { TestProject } from 'vitest/node';
import { openTestDatabase } from '../../../packages/postgres/test-support/embedded-postgres-server.js';
import { startMotoServer, startS3rver } from '../../../packages/s3/test/start-s3-servers.js';
import { startAllOrNone, stopAll } from '../../../test-support/process-groups.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A fresh, empty database of this run: on DATABASE_URL's server when set, else an embedded one. */
    demoDatabaseUrl: string;
    /** s3rver, started for this run (shared with the other projects: each test makes a bucket of its own name). */
    demoS3Endpoint: string;
    /** moto_server, the S3-compatible server with lifecycle rules. */
    demoMotoEndpoint: string;
  }
}

/**
 * The real servers the demo's PostgreSQL and S3 modes run against, started once for the project
 * with the postgres and s3 packages' own harnesses. One that cannot start fails the run, and those
 * that did start are stopped.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { database, s3rver, moto } = await startAllOrNone({
    database: async () => {
      const opened = await openTestDatabase();
      return { connectionString: opened.connectionString, stop: () => opened.close() };
    },
    s3rver: startS3rver,
    moto: startMotoServer,
  });
  project.provide('demoDatabaseUrl', database.connectionString);
  project.provide('demoS3Endpoint', s3rver.endpoint);
  project.provide('demoMotoEndpoint', moto.endpoint);
  return () => stopAll([database, s3rver, moto]);
}
