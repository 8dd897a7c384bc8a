import { createServer } from 'node:net';
import { exampleIndividualPayload } from '@onboarding-kit/core';
import { createPostgresAdapters } from '@onboarding-kit/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorBody, type Harness, startHarness, uploadFiles } from '../support/http-harness.js';

/** A port nothing listens on: bound, then closed again. */
const closedPort = async (): Promise<number> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address !== null ? address.port : 1;
};

/**
 * Decisions §5: the idempotency store unreachable → 503, never a run without the guarantee. The
 * store is the real PostgreSQL adapter on a pool whose server refuses connections.
 */
export const describeUnreachableIdempotencyStore = () =>
  describe('idempotency store unreachable', () => {
    let h: Harness;
    let pool: pg.Pool;
    beforeAll(async () => {
      pool = new pg.Pool({
        host: '127.0.0.1',
        port: await closedPort(),
        connectionTimeoutMillis: 2000,
        max: 2,
      });
      h = await startHarness({ ports: { idempotency: createPostgresAdapters({ pool }).idempotency } });
    });
    afterAll(async () => {
      await h.close();
      await pool.end();
    });

    test('a keyed create → 503 STORAGE_UNAVAILABLE, nothing created, the cause logged; without a key it runs', async () => {
      await uploadFiles(h, h.keys.managerA, { 'passport.pdf': 'scan' });
      const body = exampleIndividualPayload({ idDocuments: ['passport.pdf'] });
      const keyed = await h.api
        .post('/manager/v1/clients/individuals')
        .set('SERVICE_API_KEY', h.keys.managerA)
        .set('Idempotency-Key', 'unreachable-1')
        .send(body);
      expect(keyed.status).toBe(503);
      expect(keyed.body).toEqual(errorBody('STORAGE_UNAVAILABLE'));
      expect(keyed.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
      expect(h.logged).toContainEqual({
        message: expect.any(String),
        details: expect.objectContaining({ store: expect.any(String), cause: expect.anything() }),
      });
      const clients = await h.api.get('/manager/v1/clients').set('SERVICE_API_KEY', h.keys.managerA);
      expect(clients.body.data).toEqual([]);

      const unkeyed = await h.api
        .post('/manager/v1/clients/individuals')
        .set('SERVICE_API_KEY', h.keys.managerA)
        .send(body);
      expect(unkeyed.status).toBe(201);
    });
  });
