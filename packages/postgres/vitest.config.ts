import { packageProject } from '../../vitest.shared.ts';

export default packageProject('postgres', {
  globalSetup: ['./test/global-setup.ts', './test/processes-build.global-setup.ts'],
});
