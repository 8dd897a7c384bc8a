import type { TestProject } from 'vitest/node';
import { startAllOrNone, stopAll } from '../../../../test-support/process-groups.js';
import { openTestDatabase } from '../../../postgres/test-support/embedded-postgres-server.js';
import { startS3rver } from '../../../s3/test/start-s3-servers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A fresh, empty database of this run (not migrated). */
    consolePostgresUrl: string;
    /** s3rver, started for this run (shared with the other projects: each test makes a bucket of its own name). */
    consoleS3Endpoint: string;
  }
}

/**
 * The real servers the console's PostgreSQL + S3 review runs against, started with the postgres
 * and s3 packages' own harnesses: one that cannot start fails the run, and the others are stopped.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { database, s3rver } = await startAllOrNone({
    database: async () => {
      const opened = await openTestDatabase();
      return { connectionString: opened.connectionString, stop: () => opened.close() };
    },
    s3rver: startS3rver,
  });
  project.provide('consolePostgresUrl', database.connectionString);
  project.provide('consoleS3Endpoint', s3rver.endpoint);
  return () => stopAll([database, s3rver]);
}
