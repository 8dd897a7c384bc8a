import { exampleIndividualPayload } from '@onboarding-kit/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from '../support/http-harness.js';

/** A body of `count` unknown properties, each a short key: close to 1 MiB at 90,000. */
const unknownKeys = (count: number): Record<string, number> =>
  Object.fromEntries(Array.from({ length: count }, (_, index) => [`k${index.toString(36)}`, 0]));

/** An error answer stays small however many errors the body holds. */
export const describeBoundedAnswers = () =>
  describe('bounded error answers', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness();
    });
    afterAll(() => h.close());

    test('90,000 unknown keys (about 1 MB) answer the first 100 paths and the count, in under 20 KB', async () => {
      const body = JSON.stringify({ ...exampleIndividualPayload(), ...unknownKeys(90_000) });
      expect(body.length).toBeLessThan(1_048_576);
      const started = performance.now();
      const response = await h.api
        .post('/manager/v1/clients/individuals')
        .set('SERVICE_API_KEY', h.keys.managerA)
        .set('Content-Type', 'application/json')
        .send(body);
      const elapsedMs = performance.now() - started;
      expect(response.status).toBe(400);
      expect(response.text.length).toBeLessThan(20_000);
      expect(response.body.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(response.body.parameterErrors)).toHaveLength(100);
      expect(response.body.parameterErrors.k0).toEqual(['Unknown property']);
      // Every unknown key, plus the file the example names that was never uploaded, if reported.
      expect(response.body.totalParameterErrors).toBeGreaterThanOrEqual(90_000);
      // Validation is linear in the body: well under the time a quadratic pass over 90,000 keys takes.
      expect(elapsedMs).toBeLessThan(5_000);
    });

    test('an unknown key of 100,000 characters is answered cut short, not echoed', async () => {
      const key = 'x'.repeat(100_000);
      const response = await h.api
        .post('/manager/v1/clients/individuals')
        .set('SERVICE_API_KEY', h.keys.managerA)
        .send({ ...exampleIndividualPayload(), [key]: 1 });
      expect(response.status).toBe(400);
      expect(response.text.length).toBeLessThan(2_000);
      const paths = Object.keys(response.body.parameterErrors);
      expect(paths.some((path) => path.startsWith('xxx') && path.endsWith('…'))).toBe(true);
    });

    test('a body with few errors answers them all, without a count', async () => {
      const response = await h.api
        .post('/manager/v1/clients/individuals')
        .set('SERVICE_API_KEY', h.keys.managerA)
        .send({ ...exampleIndividualPayload(), surplus: 1 });
      expect(response.status).toBe(400);
      expect(response.body.parameterErrors.surplus).toEqual(['Unknown property']);
      expect(response.body).not.toHaveProperty('totalParameterErrors');
    });
  });
