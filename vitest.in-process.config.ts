import { configDefaults } from 'vitest/config';
import { packageProject } from './vitest.shared.ts';

/**
 * The packages whose tests run in the test process alone (no database, S3 server, browser or child
 * process; an Express app on port 0 at most) and replace no module: core, memory, screening-list,
 * webhook-transport and review-console (its browser tests are a project of their own,
 * packages/review-console/vitest.browser.config.ts). One project, so one module graph per worker for
 * all of them: as five projects, each worker of each imported the kit's sources again (five
 * projects' runs used 53.5 CPU s, one project's 31.6: docs/performance.md). One package alone:
 * `pnpm vitest run --project in-process packages/core`.
 */
export default packageProject('in-process', {
  include: ['packages/{core,memory,screening-list,webhook-transport,review-console}/test/**/*.test.ts'],
  exclude: [...configDefaults.exclude, 'packages/review-console/test/browser/**'],
});
