import { packageProject } from '../../vitest.shared.ts';

export default packageProject('demo', { testTimeout: 60_000, globalSetup: ['./test/global-setup.ts'] });
