import type { TestProject } from 'vitest/node';
import { openTestDatabase } from '../test-support/embedded-postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A fresh, empty database of this run (not migrated). */
    postgresUrl: string;
  }
}

/** One real PostgreSQL for the whole postgres project: started here, stopped at the end. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const database = await openTestDatabase();
  project.provide('postgresUrl', database.connectionString);
  return () => database.close();
}
