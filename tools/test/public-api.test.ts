import { describe, expect, test } from 'vitest';
import { publicApiReport, publishedPackages } from '../public-api.js';

/**
 * The public API of each package is an explicit list in its index; this pins it in
 * `docs/api/<package>.exports.txt`, so a change to the surface shows in review. After a deliberate
 * change: `pnpm api:write`.
 */
describe('public API reports', () => {
  test.each(publishedPackages)('@onboarding-kit/%s exports exactly what docs/api lists', async (name) => {
    await expect(publicApiReport(name)).toMatchFileSnapshot(`../../docs/api/${name}.exports.txt`);
  });
});
