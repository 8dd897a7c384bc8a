import { describe, expect, test } from 'vitest';
import { type PublishedEntry, publicApiReport, publishedEntries } from '../public-api.js';

/**
 * The public API of each entry point is an explicit list in its file; this pins it in
 * `docs/api/<entry>.exports.txt`, so a change to the surface shows in review. After a deliberate
 * change: `pnpm api:write`.
 */
describe('public API reports', () => {
  test.each(Object.keys(publishedEntries) as PublishedEntry[])(
    '%s exports exactly what docs/api lists',
    async (name) => {
      await expect(publicApiReport(name)).toMatchFileSnapshot(`../../docs/api/${name}.exports.txt`);
    },
  );
});
