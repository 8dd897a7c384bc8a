import { inject } from 'vitest';

export type S3TestServer = { readonly name: 's3rver' | 'moto'; readonly endpoint: string };

/** The servers the global setup started (the behaviour suite runs on both). */
export const s3TestServers = (): S3TestServer[] => [
  { name: 's3rver', endpoint: inject('s3rverEndpoint') },
  { name: 'moto', endpoint: inject('motoEndpoint') },
];
