import { packageProject } from '../../vitest.shared.ts';

// Isolated: run without isolation on a loaded machine (load 20-27), 3 of 62 tests failed (a walkthrough
// download reset, a webhook fairness timeout, a SIGTERM the tsx CLI turned into SIGKILL, since fixed);
// not yet told apart from the load. Its processes and servers, not imports, take its time.
export default packageProject('demo', {
  isolate: true,
  testTimeout: 60_000,
  globalSetup: ['./test/global-setup.ts'],
});
