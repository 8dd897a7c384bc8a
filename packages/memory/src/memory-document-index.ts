import { type DocumentIndex, REDACTED_VALUE, redactedDocumentKey } from '@onboarding-kit/core/adapter';
import { ok } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';
import type { TableAccess } from './memory-database.js';

export const createMemoryDocumentIndex = (access: TableAccess): DocumentIndex => ({
  insertMany: (documents) =>
    access.write((tables) => {
      for (const document of documents) {
        if (document.upload !== undefined) {
          // The unique constraint of a database: refused, and nothing of the write is kept.
          if (tables.documentUploads.get(document.upload) !== undefined)
            throw new Error('A document was already made from this upload');
          tables.documentUploads.set(document.upload, document.key);
          // The document keeps the upload used from now on: its claim is no longer needed.
          tables.uploadClaims.delete(document.upload);
        }
        tables.documents.set(document.key, frozenClone(document));
      }
      return ok(undefined);
    }),
  findIndexedKeys: (keys) =>
    access.read((tables) => keys.filter((key) => tables.documents.get(key) !== undefined)),
  findByKeys: (managerId, keys) =>
    access.read((tables) =>
      keys.flatMap((key) => {
        const document = tables.documents.get(key);
        return document?.managerId === managerId ? [document] : [];
      }),
    ),
  claimUploads: ({ holder, uploads, now, expiresAt }) =>
    access.write((tables) => {
      const refused: string[] = [];
      for (const upload of uploads) {
        const held = tables.uploadClaims.get(upload);
        const heldByAnother = held !== undefined && held.holder !== holder && held.expiresAt > now.getTime();
        if (tables.documentUploads.get(upload) !== undefined || heldByAnother) refused.push(upload);
        else tables.uploadClaims.set(upload, { holder, expiresAt: expiresAt.getTime() });
      }
      return ok(refused);
    }),
  redactForClient: (clientId) =>
    access.write((tables) => {
      for (const document of [...tables.documents.values()]) {
        if (document.clientId !== clientId) continue;
        const key = redactedDocumentKey(document.key);
        tables.documents.delete(document.key);
        tables.documents.set(key, frozenClone({ ...document, key, filename: REDACTED_VALUE }));
        if (document.upload !== undefined) tables.documentUploads.set(document.upload, key);
      }
      return ok(undefined);
    }),
  releaseUploads: (holder, uploads) =>
    access.write((tables) => {
      for (const upload of uploads) {
        if (tables.uploadClaims.get(upload)?.holder === holder) tables.uploadClaims.delete(upload);
      }
      return ok(undefined);
    }),
});
