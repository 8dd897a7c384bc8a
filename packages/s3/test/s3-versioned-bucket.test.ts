import { randomBytes, randomUUID } from 'node:crypto';
import { ListObjectVersionsCommand, PutBucketVersioningCommand } from '@aws-sdk/client-s3';
import { expectOk, presignOne } from '@onboarding-kit/contract-tests';
import {
  type CompliancePrincipal,
  createOnboardingKit,
  exampleIndividualPayload,
  type ManagerPrincipal,
} from '@onboarding-kit/core';
import type { DocumentStorage } from '@onboarding-kit/core/adapter';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import { describe, expect, inject, it } from 'vitest';
import { sendUpload } from '../../../test-support/send-upload.js';
import { createS3DocumentStorage } from '../src/s3-document-storage.js';
import { s3ObjectKeys } from '../src/s3-object-keys.js';
import { freshBucket, s3ClientFor } from './s3-compatible-client.js';

/**
 * With S3 versioning on, a delete only lays a delete marker and the bytes stay as a
 * noncurrent version. The storage deletes every version and delete marker of what it deletes.
 * moto keeps versions as S3 does.
 */
const client = s3ClientFor(inject('motoEndpoint'));
const keys = s3ObjectKeys('tmp/', 'documents/');
const inFifteenMinutes = () => new Date(Date.now() + 15 * 60_000);

const versionedBucket = async () => {
  const bucket = await freshBucket(client);
  await client.send(
    new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: 'Enabled' } }),
  );
  return bucket;
};

/**
 * Every version and delete marker in the bucket, as [key, kind], but the upload links' markers
 * (empty objects named by a digest of the file name, s3-temporary-area-bound.test.ts), which count
 * the links until they expire whatever was done with the files.
 */
const everyVersion = async (bucket: string, prefix = '') => {
  const listed = await client.send(new ListObjectVersionsCommand({ Bucket: bucket, Prefix: prefix }));
  const isMarker = (key: string | undefined) => key?.includes('/upload-links/') === true;
  for (const version of listed.Versions ?? []) if (isMarker(version.Key)) expect(version.Size).toBe(0);
  listed.Versions = listed.Versions?.filter((version) => !isMarker(version.Key));
  listed.DeleteMarkers = listed.DeleteMarkers?.filter((marker) => !isMarker(marker.Key));
  return [
    ...(listed.Versions ?? []).map((version) => [version.Key, 'version']),
    ...(listed.DeleteMarkers ?? []).map((marker) => [marker.Key, 'delete marker']),
  ];
};

const upload = async (storage: DocumentStorage, owner: string, filename: string, bytes: Uint8Array) => {
  const presigned = await expectOk(presignOne(storage, owner, filename, inFifteenMinutes()));
  const response = await sendUpload(presigned, bytes);
  expect(response.status, await response.text()).toBeLessThan(300);
};

describe('a versioned bucket', () => {
  it('deleting documents and used uploads leaves no version and no delete marker', async () => {
    const bucket = await versionedBucket();
    const storage = createS3DocumentStorage({ client, bucket });
    const owner = `manager:${randomUUID()}`;
    // Uploaded twice: the first is already a noncurrent version when the second is used.
    await upload(storage, owner, 'passport.pdf', randomBytes(500));
    await upload(storage, owner, 'passport.pdf', randomBytes(600));
    const file = await expectOk(storage.statTemporary(owner, 'passport.pdf'));
    const item = {
      owner,
      filename: 'passport.pdf',
      key: `${randomUUID()}_passport.pdf`,
      version: file?.version ?? '',
    };
    // Copied twice (a retried promotion): two versions of the document.
    await expectOk(storage.copyToPermanent([item]));
    await expectOk(storage.copyToPermanent([item]));
    expect(await everyVersion(bucket, 'documents/')).toHaveLength(2);

    await expectOk(storage.deleteTemporary(owner, [{ filename: 'passport.pdf', version: item.version }]));
    expect(await everyVersion(bucket, 'tmp/')).toEqual([]);

    await expectOk(storage.deletePermanent([item.key]));
    expect(await everyVersion(bucket)).toEqual([]);
    expect(await expectOk(storage.missingPermanent([item.key]))).toEqual([item.key]);
    // Again (a redaction's rerun): a delete of nothing lays a marker on a versioned bucket; it goes too.
    await expectOk(storage.deletePermanent([item.key, `${randomUUID()}_never-written.pdf`]));
    expect(await everyVersion(bucket)).toEqual([]);
  });

  it("a redacted client's documents leave no bytes in the bucket, in any version", async () => {
    const bucket = await versionedBucket();
    const storage = createS3DocumentStorage({ client, bucket });
    const memory = createMemoryAdapters();
    const kit = createOnboardingKit({ ...memory, documentStorage: storage });
    const manager: ManagerPrincipal = { kind: 'manager', managerId: randomUUID() };
    const compliance: CompliancePrincipal = { kind: 'compliance', complianceId: 'officer-1' };
    const names = ['passport.pdf', 'bill.pdf'];
    const batch = await expectOk(kit.documents.requestUploadBatch(manager, { filenames: names }));
    for (const link of batch.uploads) {
      expect((await sendUpload(link, randomBytes(700))).status).toBeLessThan(300);
    }
    const created = await expectOk(
      kit.clients.createIndividual(
        manager,
        exampleIndividualPayload({ idDocuments: ['passport.pdf'], proofOfAddressDocuments: ['bill.pdf'] }),
      ),
    );
    expect(await everyVersion(bucket, keys.permanentFolder)).toHaveLength(2);
    await expectOk(kit.clients.delete(manager, created.id));
    await expectOk(kit.redaction.redact(compliance, created.id));
    expect(await everyVersion(bucket)).toEqual([]);
  });
});
