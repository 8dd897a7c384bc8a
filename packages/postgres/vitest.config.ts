import { packageProject } from '../../vitest.shared';

export default packageProject('postgres');
