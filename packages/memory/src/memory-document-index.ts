import { type DocumentIndex, storageUnavailable } from '@onboarding-kit/core';
import { err, ok } from 'neverthrow';
import { type TableAccess, type UploadClaimRow, uploadClaimId } from './memory-database.js';

const memoryUnavailable = storageUnavailable('memory');

export const createMemoryDocumentIndex = (access: TableAccess): DocumentIndex => ({
  insertMany: (documents) =>
    access.write((tables) => {
      for (const document of documents) {
        if (document.upload !== undefined) {
          // The unique constraint of a database: refused, and nothing of the write is kept.
          if (tables.documentUploads.has(document.upload)) {
            return err(memoryUnavailable(new Error('A document was already made from this upload')));
          }
          tables.documentUploads.set(document.upload, document.key);
        }
        tables.documents.set(document.key, document);
      }
      return ok(undefined);
    }),
  findIndexedKeys: (keys) => access.read((tables) => keys.filter((key) => tables.documents.has(key))),
  findByKeys: (managerId, keys) =>
    access.read((tables) =>
      keys.flatMap((key) => {
        const document = tables.documents.get(key);
        return document?.managerId === managerId ? [document] : [];
      }),
    ),
  claimUploads: ({ holder, owner, uploads, now, expiresAt }) =>
    access.write((tables) => {
      const at = now.getTime();
      const claims = tables.uploadClaims;
      for (const row of claims.selectWithin(
        'byOwner',
        owner,
        (r) => r.owner === owner && r.expiresAt <= at,
      )) {
        claims.delete(uploadClaimId(owner, row.upload));
      }
      const refused: string[] = [];
      for (const upload of uploads) {
        const held = claims.get(uploadClaimId(owner, upload));
        if (tables.documentUploads.has(upload) || (held !== undefined && held.holder !== holder)) {
          refused.push(upload);
        } else {
          claims.set(uploadClaimId(owner, upload), { upload, owner, holder, expiresAt: expiresAt.getTime() });
        }
      }
      return ok(refused);
    }),
  releaseUploads: (owner, holder) =>
    access.write((tables) => {
      const ofHolder = (r: UploadClaimRow) => r.owner === owner && r.holder === holder;
      for (const row of tables.uploadClaims.selectWithin('byOwner', owner, ofHolder)) {
        tables.uploadClaims.delete(uploadClaimId(owner, row.upload));
      }
      return ok(undefined);
    }),
});
