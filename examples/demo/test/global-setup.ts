import type { TestProject } from 'vitest/node';
import { openTestDatabase } from '../../../packages/postgres/test-support/embedded-postgres-server.js';
import { startMotoServer, startS3rver } from '../../../packages/s3/test/start-s3-servers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A fresh, empty database of this run: on DATABASE_URL's server when set, else an embedded one. */
    demoDatabaseUrl: string;
    /** s3rver, started for this run, with no bucket yet. */
    demoS3Endpoint: string;
    /** moto_server, the S3-compatible server with lifecycle rules. */
    demoMotoEndpoint: string;
  }
}

/**
 * The real servers the demo's PostgreSQL and S3 modes run against, started once for the project
 * with the postgres and s3 packages' own harnesses. One that cannot start fails the run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const database = await openTestDatabase();
  const servers = await Promise.all([startS3rver(), startMotoServer()]).catch(async (error: unknown) => {
    await database.close();
    throw error;
  });
  const [s3rver, moto] = servers;
  project.provide('demoDatabaseUrl', database.connectionString);
  project.provide('demoS3Endpoint', s3rver.endpoint);
  project.provide('demoMotoEndpoint', moto.endpoint);
  return async () => {
    await Promise.all([database.close(), s3rver.stop(), moto.stop()]);
  };
}
