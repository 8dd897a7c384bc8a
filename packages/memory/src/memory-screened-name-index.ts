import type { ScreenedNameCandidate, ScreenedNameIndex } from '@onboarding-kit/core/adapter';
import { ok } from 'neverthrow';
import { frozenClone } from './frozen-clone.js';
import type { TableAccess } from './memory-database.js';
import { ascending, compareOrderKeys } from './memory-tables.js';

/**
 * The index of screened names in memory: a client's names are one row, and each of their keys an
 * entry `[key, clientId, field]` of an ordered table, so that a key's names are read without the rest.
 */
export const createMemoryScreenedNameIndex = (access: TableAccess): ScreenedNameIndex => ({
  replace: (clientId, names) =>
    access.write((tables) => {
      for (const name of tables.screenedNames.get(clientId) ?? []) {
        for (const key of name.keys)
          tables.screenedNameKeys = tables.screenedNameKeys.remove([key, clientId, name.field]);
      }
      if (names.length === 0) {
        tables.screenedNames.delete(clientId);
        return ok(undefined);
      }
      tables.screenedNames.set(clientId, frozenClone([...names]));
      for (const name of names) {
        for (const key of new Set(name.keys)) {
          tables.screenedNameKeys = tables.screenedNameKeys.insert([key, clientId, name.field], true);
        }
      }
      return ok(undefined);
    }),
  candidates: ({ keys, after, limit }) =>
    access.read((tables) => {
      const found = new Map<string, readonly [string, string]>();
      const from = after === undefined ? undefined : [after.clientId, after.field];
      for (const key of new Set(keys)) {
        for (const [[, clientId, field]] of ascending(tables.screenedNameKeys, key)) {
          const at = [clientId as string, field as string] as const;
          if (from === undefined || compareOrderKeys(at, from) > 0) found.set(JSON.stringify(at), at);
        }
      }
      const page = [...found.values()].sort(compareOrderKeys).slice(0, limit);
      return page.flatMap(([clientId, field]): ScreenedNameCandidate[] => {
        const name = tables.screenedNames.get(clientId)?.find((indexed) => indexed.field === field);
        return name === undefined ? [] : [{ ...name, clientId }];
      });
    }),
});
