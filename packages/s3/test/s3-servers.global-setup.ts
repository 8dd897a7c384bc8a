import type { TestProject } from 'vitest/node';
import { startMotoServer, startS3rver } from './start-s3-servers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    s3rverEndpoint: string;
    motoEndpoint: string;
  }
}

/**
 * Starts both S3-compatible servers the suite runs against; a server that cannot start fails the
 * suite. s3rver checks presigned-link expiry; moto implements lifecycle configuration.
 */
export default async function startS3Servers(project: TestProject) {
  const s3rver = await startS3rver();
  const moto = await startMotoServer().catch(async (error: unknown) => {
    await s3rver.stop();
    throw error;
  });
  project.provide('s3rverEndpoint', s3rver.endpoint);
  project.provide('motoEndpoint', moto.endpoint);
  return async () => {
    await Promise.all([s3rver.stop(), moto.stop()]);
  };
}
