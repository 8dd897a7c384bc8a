import { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { createS3DocumentStorage } from '../src/s3-document-storage.js';
import { checkS3Prefixes } from '../src/s3-object-keys.js';
import { ensureTemporaryExpiry } from '../src/temporary-expiry.js';

/** Never called: every case below is refused before any request. */
const client = new S3Client({
  region: 'us-east-1',
  endpoint: 'http://127.0.0.1:9',
  credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
});

const refused: Array<[string, string, string]> = [
  // [temporaryPrefix, permanentPrefix, what the message says]
  ['', 'documents/', 'temporaryPrefix must be a folder'],
  ['tmp', 'documents/', 'temporaryPrefix must be a folder'],
  ['tmp/', '', 'permanentPrefix must be a folder'],
  ['tmp/', 'documents', 'permanentPrefix must be a folder'],
  ['files/', 'files/', 'separate folders'],
  ['tmp/', 'tmp/documents/', 'separate folders'],
  ['uploads/tmp/', 'uploads/', 'separate folders'],
];

describe('S3 prefixes: two separate folders, so the uploads lifecycle rule never takes a document', () => {
  it.each(refused)('refuses temporary %j with permanent %j', (temporaryPrefix, permanentPrefix, message) => {
    expect(() => checkS3Prefixes(temporaryPrefix, permanentPrefix)).toThrow(message);
    expect(() => createS3DocumentStorage({ client, bucket: 'b', temporaryPrefix, permanentPrefix })).toThrow(
      TypeError,
    );
    expect(() => ensureTemporaryExpiry({ client, bucket: 'b', temporaryPrefix, permanentPrefix })).toThrow(
      TypeError,
    );
  });

  it('refuses a temporary folder that would expire the default permanent one', () => {
    expect(() => createS3DocumentStorage({ client, bucket: 'b', temporaryPrefix: 'documents/' })).toThrow(
      'separate folders',
    );
    expect(() => ensureTemporaryExpiry({ client, bucket: 'b', permanentPrefix: 'tmp/docs/' })).toThrow(
      'separate folders',
    );
  });

  it('accepts separate folders, nested in a shared parent or side by side', () => {
    for (const [temporaryPrefix, permanentPrefix] of [
      ['tmp/', 'documents/'],
      ['kit/tmp/', 'kit/documents/'],
      ['tmp/', 'tmp-documents/'],
      ['a/b/', 'a/c/'],
    ] as const) {
      expect(() => checkS3Prefixes(temporaryPrefix, permanentPrefix)).not.toThrow();
      expect(() =>
        createS3DocumentStorage({ client, bucket: 'b', temporaryPrefix, permanentPrefix }),
      ).not.toThrow();
    }
  });
});
