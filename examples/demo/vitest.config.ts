import { packageProject } from '../../vitest.shared.ts';

// Its processes and servers take its time; its files share one module graph per worker, as the other
// projects' do (each file still starts its own demos, databases and receivers).
export default packageProject('demo', {
  testTimeout: 60_000,
  globalSetup: ['./test/global-setup.ts', './test/demo-build.global-setup.ts'],
});
