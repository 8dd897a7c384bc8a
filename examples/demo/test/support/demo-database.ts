import { inject } from 'vitest';
import {
  createFreshDatabase,
  dropDatabase,
} from '../../../../packages/postgres/test-support/embedded-postgres-server.js';

/**
 * An empty database of its own for one test, on the run's PostgreSQL server, so that tests running
 * in parallel never see each other's clients. Dropped by `drop()`.
 */
export const openDemoDatabase = async (): Promise<{ url: string; drop: () => Promise<void> }> => {
  const serverUrl = inject('demoDatabaseUrl');
  const url = await createFreshDatabase(serverUrl);
  return { url, drop: () => dropDatabase(serverUrl, url) };
};
