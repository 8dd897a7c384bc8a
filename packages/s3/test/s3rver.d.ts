// s3rver ships no types: the slice of its API the test harness and bench use.
declare module 's3rver' {
  import type { Server } from 'node:http';

  type S3rverOptions = {
    readonly port?: number;
    readonly address?: string;
    readonly silent?: boolean;
    readonly directory?: string;
    readonly resetOnClose?: boolean;
    readonly configureBuckets?: readonly { readonly name: string; readonly configs?: readonly unknown[] }[];
  };
  export default class S3rver {
    constructor(options?: S3rverOptions);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
    httpServer: Server;
  }
}

declare module 's3rver/lib/stores/filesystem.js' {
  export default class FilesystemStore {
    getBucketPath(bucket: string): string;
    getResourcePath(bucket: string, key: string, resource: string): string;
    deleteObject(bucket: string, key: string): Promise<void>;
  }
}
