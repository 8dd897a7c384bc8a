import type { DocumentIndex } from '@onboarding-kit/core/adapter';
import { ok } from 'neverthrow';
import type { TableAccess } from './memory-database.js';

export const createMemoryDocumentIndex = (access: TableAccess): DocumentIndex => ({
  insertMany: (documents) =>
    access.write((tables) => {
      for (const document of documents) tables.documents.set(document.key, document);
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
});
