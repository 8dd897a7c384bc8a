import { randomUUID } from 'node:crypto';
import { CreateBucketCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';

/** The client settings the README prescribes for S3-compatible servers (tests and bench). */
export const s3ClientFor = (endpoint: string, extra: { maxAttempts?: number } = {}): S3Client =>
  new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // s3rver's default account; moto accepts any credentials.
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    ...extra,
  });

/** A new, empty bucket with a random name: no test sees another's files. */
export const freshBucket = async (client: S3Client): Promise<string> => {
  const bucket = `kit-${randomUUID().slice(0, 13)}`;
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return bucket;
};

/** Reads an object straight from the bucket, or null when it is not there. */
export const readObject = async (client: S3Client, bucket: string, key: string): Promise<Buffer | null> => {
  try {
    const output = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return Buffer.from((await output.Body?.transformToByteArray()) ?? new Uint8Array());
  } catch (error) {
    if ((error as { name?: unknown }).name === 'NoSuchKey') return null;
    throw error;
  }
};
