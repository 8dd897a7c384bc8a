import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createOpenApiDocument } from '../../src/index.js';
import { type Harness, startHarness } from '../support/http-harness.js';

/** `/openapi.json` and `/docs`, served without a key and with no CDN. */
export const describeApiDocs = () =>
  describe('API docs', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness();
    });
    afterAll(() => h.close());

    test('GET /openapi.json → the generated document, without a key', async () => {
      const response = await h.api.get('/openapi.json');
      expect(response.status).toBe(200);
      expect(response.body).toEqual(JSON.parse(JSON.stringify(createOpenApiDocument())));
    });

    test('GET /docs → a Swagger UI page whose assets are served locally', async () => {
      const page = await h.api.get('/docs');
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toContain('data-spec-url="/openapi.json"');
      expect(page.text).not.toMatch(/https?:\/\//);
      const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, path]) => path as string);
      expect(assets).toHaveLength(4);
      for (const asset of assets) {
        const response = await h.api.get(asset);
        expect(response.status, asset).toBe(200);
        expect(response.text.length, asset).toBeGreaterThan(100);
      }
    });
  });
