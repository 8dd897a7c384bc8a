import { packageProject } from '../../vitest.shared';

export default packageProject('postgres', { globalSetup: ['./test/global-setup.ts'] });
