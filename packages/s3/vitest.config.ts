import { packageProject } from '../../vitest.shared.ts';

export default packageProject('s3', { globalSetup: ['./test/s3-servers.global-setup.ts'] });
