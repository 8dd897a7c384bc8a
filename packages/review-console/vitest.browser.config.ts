import { packageProject } from '../../vitest.shared.ts';

// The console in a real Chromium (Debian's `chromium`, driven by playwright-core), on memory and on
// PostgreSQL + S3 (the servers the global setup starts with the postgres and s3 packages' harnesses).
export default packageProject('review-console-browser', {
  include: ['test/browser/**/*.test.ts'],
  testTimeout: 120_000,
  globalSetup: ['./test/browser/servers.global-setup.ts'],
});
