import { randomUUID } from 'node:crypto';
import {
  createOnboardingKit,
  type ManagerPrincipal,
  type OnboardingKitOptions,
  type OnboardingKitPorts,
  randomUuids,
  systemClock,
} from '@onboarding-kit/core';
import { createMemoryAdapters, type MemoryAdapters } from '@onboarding-kit/memory';
import type { PostgresAdapters } from '../src/postgres-adapters.js';

/** What a test changes of the wiring: any port, the kit's options. */
export type KitOnPostgresChanges = Partial<OnboardingKitPorts> & { readonly options?: OnboardingKitOptions };

/**
 * The kit as a host wires it: every persistence port of `adapters` on PostgreSQL, documents in
 * memory storage (of `memory`), the system clock and random ids, unless `changes` replaces them.
 * With a manager of its own, and `upload`: a file put in that manager's temporary storage.
 */
export const kitOnPostgres = (
  adapters: PostgresAdapters,
  changes: KitOnPostgresChanges = {},
  memory: MemoryAdapters = createMemoryAdapters(),
) => {
  const kit = createOnboardingKit({
    ...adapters,
    documentStorage: memory.documentStorage,
    clock: systemClock,
    ids: randomUuids,
    ...changes,
  });
  const manager: ManagerPrincipal = { kind: 'manager', managerId: randomUUID() };
  const upload = (filename: string, bytes: Uint8Array = new Uint8Array(8)) =>
    memory.testing.putTemporaryFile(`manager:${manager.managerId}`, filename, bytes);
  return { kit, memory, manager, upload };
};
