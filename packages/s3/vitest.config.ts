import { packageProject } from '../../vitest.shared.ts';

// Its files share s3rver and moto_server with the other projects' and run beside another file: the
// listing of 1,200 files on s3rver took over 30 s at load 14 (2026-11-27), hence the room.
export default packageProject('s3', {
  testTimeout: 60_000,
  globalSetup: ['./test/s3-servers.global-setup.ts'],
});
