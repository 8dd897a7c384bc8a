import type { TestProject } from 'vitest/node';
import { startAllOrNone, stopAll } from '../../../test-support/process-groups.js';
import { startMotoServer, startS3rver } from './start-s3-servers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    s3rverEndpoint: string;
    motoEndpoint: string;
  }
}

/**
 * Starts both S3-compatible servers the suite runs against; a server that cannot start fails the
 * suite, and the other one is stopped. s3rver checks presigned-link expiry; moto implements
 * lifecycle configuration.
 */
export default async function startS3Servers(project: TestProject) {
  const { s3rver, moto } = await startAllOrNone({ s3rver: startS3rver, moto: startMotoServer });
  project.provide('s3rverEndpoint', s3rver.endpoint);
  project.provide('motoEndpoint', moto.endpoint);
  return () => stopAll([s3rver, moto]);
}
