import { randomBytes, randomUUID } from 'node:crypto';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { expectErr, expectOk } from '@onboarding-kit/contract-tests';
import { createOnboardingKit, exampleIndividualPayload, type ManagerPrincipal } from '@onboarding-kit/core';
import { type DocumentStorage, storageUnavailable, type UnitOfWork } from '@onboarding-kit/core/adapter';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import { errAsync } from 'neverthrow';
import { describe, expect, inject, it } from 'vitest';
import { sendUpload } from '../../../test-support/send-upload.js';
import { createS3DocumentStorage } from '../src/s3-document-storage.js';
import { s3ObjectKeys } from '../src/s3-object-keys.js';
import { startCopyFaultProxy } from './copy-fault-proxy.js';
import { freshBucket, readObject, s3ClientFor } from './s3-compatible-client.js';
import { freePort } from './start-s3-servers.js';

/**
 * Decisions §4 with S3 behind the kit: copy, commit the client, then delete the temporaries. A
 * failure at any step must leave the user able to retry with the same files, and leave no orphan
 * permanent copy. The kit runs on memory adapters; documents live in a real S3 server (moto).
 */
const endpoint = inject('motoEndpoint');
const direct = s3ClientFor(endpoint);
const keys = s3ObjectKeys('tmp/', 'documents/');

const files = new Map([
  ['passport.pdf', randomBytes(2_000)],
  ['Relevé été #2 "final".pdf', randomBytes(3_000)],
  ['poisoned bill.pdf', randomBytes(1_000)],
]);
const payload = exampleIndividualPayload({
  idDocuments: ['passport.pdf'],
  proofOfAddressDocuments: ['Relevé été #2 "final".pdf', 'poisoned bill.pdf'],
  // The same file in two fields is moved once.
  proofOfAmlDocuments: ['passport.pdf'],
});

const permanentObjectCount = async (bucket: string) =>
  (await direct.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'documents/' }))).KeyCount ?? 0;

type Faults = { storage?: (healthy: DocumentStorage) => DocumentStorage; commitFails?: boolean };

/** A kit over one memory store and one bucket; each call may inject faults, the data stays. */
const scenario = async () => {
  const bucket = await freshBucket(direct);
  const memory = createMemoryAdapters();
  const healthyStorage = createS3DocumentStorage({ client: direct, bucket });
  const manager: ManagerPrincipal = { kind: 'manager', managerId: randomUUID() };
  const kitWith = ({ storage, commitFails = false }: Faults = {}) => {
    const unitOfWork: UnitOfWork = commitFails
      ? {
          // The work runs in the real transaction, then the commit fails: nothing of it is kept.
          transaction: (work) =>
            memory.unitOfWork.transaction((stores) =>
              work(stores).andThen(() =>
                errAsync(storageUnavailable('memory')(new Error('injected commit failure'))),
              ),
            ),
        }
      : memory.unitOfWork;
    return createOnboardingKit({
      ...memory,
      documentStorage: storage ? storage(healthyStorage) : healthyStorage,
      unitOfWork,
    });
  };
  const uploadAll = async () => {
    const kit = kitWith();
    const batch = await expectOk(kit.documents.requestUploadBatch(manager, { filenames: [...files.keys()] }));
    for (const upload of batch.uploads) {
      const response = await sendUpload(upload, files.get(upload.filename) ?? '');
      expect(response.status).toBeLessThan(300);
    }
  };
  const expectNothingLost = async () => {
    const kit = kitWith();
    const uploads = await expectOk(kit.documents.listUploads(manager));
    expect(uploads.files.map((file) => [file.filename, file.size]).sort()).toEqual(
      [...files].map(([filename, bytes]) => [filename, bytes.length]).sort(),
    );
    expect(await permanentObjectCount(bucket)).toBe(0);
    expect((await expectOk(kit.clients.list(manager, {}))).data).toEqual([]);
  };
  const retrySucceeds = async () => {
    const client = await expectOk(kitWith().clients.createIndividual(manager, payload));
    const idKey = client.individualProfile?.idDocuments[0] ?? '';
    expect(idKey).toMatch(/^[0-9a-f-]{36}_passport\.pdf$/);
    expect(client.individualProfile?.proofOfAmlDocuments).toEqual([idKey]);
    const proofKeys = client.individualProfile?.proofOfAddressDocuments ?? [];
    expect(await readObject(direct, bucket, keys.permanent(idKey))).toEqual(files.get('passport.pdf'));
    for (const [index, filename] of ['Relevé été #2 "final".pdf', 'poisoned bill.pdf'].entries()) {
      expect(proofKeys[index]).toMatch(new RegExp(`_${filename.replace(/[.#"]/g, '\\$&')}$`));
      expect(await readObject(direct, bucket, keys.permanent(proofKeys[index] ?? ''))).toEqual(
        files.get(filename),
      );
    }
    expect(await permanentObjectCount(bucket)).toBe(3);
    return client;
  };
  return { bucket, manager, memory, kitWith, uploadAll, expectNothingLost, retrySucceeds };
};

describe('the kit with S3 storage, when a step of document promotion fails', () => {
  it('a copy failing on the wire: the client is not created, the copies made are removed, a retry works', async () => {
    const run = await scenario();
    await run.uploadAll();
    const proxy = await startCopyFaultProxy(endpoint, 'error-inside-200');
    try {
      const throughProxy = createS3DocumentStorage({
        client: s3ClientFor(proxy.endpoint, { maxAttempts: 1 }),
        bucket: run.bucket,
        promotionConcurrency: 1,
      });
      const kit = run.kitWith({ storage: () => throughProxy });
      expect(await expectErr(kit.clients.createIndividual(run.manager, payload))).toMatchObject({
        type: 'StorageUnavailable',
        store: 's3',
      });
    } finally {
      await proxy.close();
    }
    await run.expectNothingLost();
    await run.retrySucceeds();
  });

  it('the commit failing after every copy: the copies are removed, the temporaries stay, a retry works', async () => {
    const run = await scenario();
    await run.uploadAll();
    let copiesMade = 0;
    const counting = (healthy: DocumentStorage): DocumentStorage => ({
      ...healthy,
      copyToPermanent: (items) =>
        healthy.copyToPermanent(items).andTee(() => {
          copiesMade += items.length;
        }),
    });
    const kit = run.kitWith({ storage: counting, commitFails: true });
    expect(await expectErr(kit.clients.createIndividual(run.manager, payload))).toMatchObject({
      type: 'StorageUnavailable',
    });
    expect(copiesMade).toBe(3);
    await run.expectNothingLost();
    await run.retrySucceeds();
  });

  it('the delete of temporaries failing after the commit: the client exists with its documents', async () => {
    const run = await scenario();
    await run.uploadAll();
    const deleteFails = (healthy: DocumentStorage): DocumentStorage => ({
      ...healthy,
      deleteTemporary: () => errAsync(storageUnavailable('s3')(new Error('injected delete failure'))),
    });
    const client = await expectOk(
      run.kitWith({ storage: deleteFails }).clients.createIndividual(run.manager, payload),
    );
    expect(client.status).toBe('ONBOARDING_UNDER_REVIEW');
    expect(await permanentObjectCount(run.bucket)).toBe(3);
    // The temporaries are left to the 24-hour expiry; the committed client holds its own copies.
    const left = await expectOk(run.kitWith().documents.listUploads(run.manager));
    expect(left.files).toHaveLength(3);
    const key = client.individualProfile?.idDocuments[0] ?? '';
    expect(await readObject(direct, run.bucket, keys.permanent(key))).toEqual(files.get('passport.pdf'));
  });

  it('no failure: the documents move, the temporaries go, and the download names the original file', async () => {
    const run = await scenario();
    await run.uploadAll();
    const client = await run.retrySucceeds();
    expect((await expectOk(run.kitWith().documents.listUploads(run.manager))).files).toEqual([]);
    const key = client.individualProfile?.proofOfAddressDocuments[0] ?? '';
    const downloads = await expectOk(
      run.kitWith().documents.requestDownloadBatch(run.manager, { filenames: [key] }),
    );
    const url = new URL(downloads.downloads[0]?.downloadUrl ?? '');
    expect(url.searchParams.get('response-content-disposition')).toContain(
      `filename*=UTF-8''${encodeURIComponent('Relevé été #2 "final".pdf').replace('%23', '#')}`,
    );
    expect(Buffer.from(await (await fetch(url)).arrayBuffer())).toEqual(
      files.get('Relevé été #2 "final".pdf'),
    );
  });

  it('an unreachable bucket: the kit answers StorageUnavailable and commits nothing', async () => {
    const run = await scenario();
    await run.uploadAll();
    const unreachable = createS3DocumentStorage({
      client: s3ClientFor(`http://127.0.0.1:${await freePort()}`, { maxAttempts: 1 }),
      bucket: run.bucket,
    });
    const kit = run.kitWith({ storage: () => unreachable });
    expect(await expectErr(kit.clients.createIndividual(run.manager, payload))).toMatchObject({
      type: 'StorageUnavailable',
      store: 's3',
    });
    expect(await expectErr(kit.documents.listUploads(run.manager))).toMatchObject({
      type: 'StorageUnavailable',
    });
    await run.expectNothingLost();
  });
});
