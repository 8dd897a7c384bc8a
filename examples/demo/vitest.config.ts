import { packageProject } from '../../vitest.shared.ts';

export default packageProject('demo', {
  isolate: true,
  testTimeout: 60_000,
  globalSetup: ['./test/global-setup.ts'],
});
