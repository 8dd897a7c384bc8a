import { randomBytes, randomUUID } from 'node:crypto';
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { expectOk } from '@onboarding-kit/contract-tests';
import {
  createOnboardingKit,
  exampleIndividualPayload,
  type ManagerPrincipal,
  principalKey,
} from '@onboarding-kit/core';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import { describe, expect, it } from 'vitest';
import { createS3DocumentStorage } from '../src/s3-document-storage.js';
import { s3ObjectKeys } from '../src/s3-object-keys.js';
import { freshBucket, s3ClientFor } from './s3-compatible-client.js';
import { s3TestServers } from './s3-test-servers.js';

/**
 * One upload is used by at most one command, with documents in S3 (the index in memory): parallel
 * creates naming one uploaded file make one client and one permanent object; the others are refused
 * at the field and copy nothing. The bucket is read directly.
 */
const keys = s3ObjectKeys('tmp/', 'documents/');

describe.each(s3TestServers())(
  'one upload, many parallel creates, documents in S3 ($name)',
  ({ endpoint, name }) => {
    const direct = s3ClientFor(endpoint);
    const objectsUnder = async (bucket: string, prefix: string) =>
      ((await direct.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }))).Contents ?? []).map(
        (object) => object.Key ?? '',
      );
    const setUp = async () => {
      const bucket = await freshBucket(direct);
      const kit = createOnboardingKit({
        ...createMemoryAdapters(),
        documentStorage: createS3DocumentStorage({ client: direct, bucket }),
      });
      const manager: ManagerPrincipal = { kind: 'manager', managerId: randomUUID() };
      const upload = (filename: string, bytes: Uint8Array) =>
        direct.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: keys.temporary(principalKey(manager), filename),
            Body: bytes,
          }),
        );
      return { bucket, kit, manager, upload };
    };

    it('20 parallel creates naming one file: one client, 19 refusals at the field, one object copied', async () => {
      const { bucket, kit, manager, upload } = await setUp();
      await upload('passport.pdf', randomBytes(4_000));
      const payload = exampleIndividualPayload({ idDocuments: ['passport.pdf'] });
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, () => kit.clients.createIndividual(manager, payload)),
      );
      const created = outcomes.filter((outcome) => outcome.isOk());
      console.log(`s3 (${name}), memory index, 20 parallel creates: ${created.length} created`);
      expect(created).toHaveLength(1);
      // A losing create read the upload either before the winner removed it (used by another
      // request) or after (no longer in temporary storage): the servers' order, not the test's.
      const refusals = [
        {
          type: 'ValidationFailed',
          reason: 'Some documents are used by another request',
          parameterErrors: {
            'profile.idDocuments[0]': [
              'File "passport.pdf" is used by another request: upload it again to use it here',
            ],
          },
        },
        {
          type: 'ValidationFailed',
          reason: 'Some documents cannot be used',
          parameterErrors: {
            'profile.idDocuments[0]': [
              'File "passport.pdf" is not in your temporary storage: upload it first',
            ],
          },
        },
      ];
      for (const outcome of outcomes) {
        if (outcome.isErr()) expect(refusals).toContainEqual(outcome.error);
      }
      const [key] = created[0]?._unsafeUnwrap().individualProfile?.idDocuments ?? [];
      expect(await objectsUnder(bucket, 'documents/')).toEqual([keys.permanent(key ?? '')]);
      expect(await objectsUnder(bucket, 'tmp/')).toEqual([]);
    });

    it('the same bytes uploaded again under the same name (one ETag) are usable again', async () => {
      const { bucket, kit, manager, upload } = await setUp();
      const bytes = randomBytes(2_000);
      const payload = exampleIndividualPayload({ idDocuments: ['passport.pdf'] });
      const firstUpload = await upload('passport.pdf', bytes);
      const first = await expectOk(kit.clients.createIndividual(manager, payload));
      // S3 dates an object to the second: an upload in the same second as the first would be the
      // same upload to the kit. The server's clock is its own: this test waits for it.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const secondUpload = await upload('passport.pdf', bytes);
      expect(secondUpload.ETag).toBe(firstUpload.ETag);
      const second = await expectOk(kit.clients.createIndividual(manager, payload));
      const [firstKey] = first.individualProfile?.idDocuments ?? [];
      const [secondKey] = second.individualProfile?.idDocuments ?? [];
      expect(secondKey).not.toBe(firstKey);
      expect((await objectsUnder(bucket, 'documents/')).sort()).toEqual(
        [keys.permanent(firstKey ?? ''), keys.permanent(secondKey ?? '')].sort(),
      );
    });
  },
);
