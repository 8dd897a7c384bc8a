import { packageProject } from '../../vitest.shared';

export default packageProject('s3', { globalSetup: ['./test/s3-servers.global-setup.ts'] });
