import type { DocumentIndex } from '@onboarding-kit/core/adapter';
import { ok } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';
import type { TableAccess } from './memory-database.js';

export const createMemoryDocumentIndex = (access: TableAccess): DocumentIndex => ({
  insertMany: (documents) =>
    access.write((tables) => {
      for (const document of documents) {
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
});
