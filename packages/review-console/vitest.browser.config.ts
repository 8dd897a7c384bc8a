import { packageProject } from '../../vitest.shared.ts';

// The console in a real Chromium (Debian's `chromium-headless-shell`, driven by playwright-core), on memory and on
// PostgreSQL + S3 (the servers the global setup starts with the postgres and s3 packages' harnesses).
// A whole review takes 35-65 s at load 10-13 on 2 cores; the full suite runs at load 20 and more,
// hence the room in the test timeout and in expect.poll's (a page after a submit).
export default packageProject('review-console-browser', {
  include: ['test/browser/**/*.test.ts'],
  testTimeout: 300_000,
  expect: { poll: { timeout: 20_000, interval: 100 } },
  globalSetup: ['./test/browser/servers.global-setup.ts'],
});
