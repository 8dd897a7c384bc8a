import { expect, inject, test } from 'vitest';
import { dropDatabase } from '../../../packages/postgres/test-support/embedded-postgres-server.js';
import { openDemoDatabase } from './support/demo-database.js';

/**
 * The harness's database of a test never fails the run when it goes away: a full run once passed
 * every test and still exited 1 on a 57P01 ("terminating connection due to administrator command")
 * emitted by a test's pool, ended just before its database was dropped `WITH (FORCE)`.
 */
const waitFor = async (condition: () => boolean, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

test('drop ends the pools of the database first: their connections close, none is terminated', async () => {
  const database = await openDemoDatabase();
  const pool = database.pool();
  const errors: unknown[] = [];
  pool.on('error', (error) => errors.push(error));
  await Promise.all([pool.query('SELECT 1'), pool.query('SELECT 1')]);
  expect(pool.idleCount).toBe(2);
  await database.drop();
  // Had the drop come first, each idle connection would have been ended by the server (57P01).
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(errors).toEqual([]);
  expect(pool.totalCount).toBe(0);
});

test('a connection the server ends under a pool of the harness fails no test: the pool drops it', async () => {
  const database = await openDemoDatabase();
  const pool = database.pool();
  await pool.query('SELECT 1');
  // The database dropped under the idle connection, as a test's cleanup or a stopped server does.
  await dropDatabase(inject('demoDatabaseUrl'), database.url);
  // The pool's 'error' (57P01) is listened for: the connection is removed, the run goes on.
  await waitFor(() => pool.totalCount === 0, 5_000);
  await expect(pool.query('SELECT 1')).rejects.toMatchObject({ code: '3D000' });
  await database.drop();
});
