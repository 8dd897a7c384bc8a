import { randomUUID } from 'node:crypto';
import { creationEntryFor, storedClientFixture } from '@onboarding-kit/contract-tests';
import { describe, expect, it } from 'vitest';
import { createMemoryAdapters, createMemoryKit } from '../src/index.js';

describe('memory testing helpers', () => {
  it('dumps every committed row and stored file, bytes as latin1 text', async () => {
    const adapters = createMemoryAdapters();
    const client = storedClientFixture({ managerId: randomUUID() });
    (await adapters.clients.insert(client, creationEntryFor(client)))._unsafeUnwrap();
    adapters.testing.putTemporaryFile('manager:m', 'scan.pdf', new TextEncoder().encode('canary-bytes'));
    const dump = adapters.testing.dump();
    expect(dump).toContain(client.id);
    expect(dump).toContain('canary-bytes');
    expect(dump).toContain('scan.pdf');
  });

  it('refuses to forge an audit entry that does not exist', async () => {
    const adapters = createMemoryAdapters();
    await expect(adapters.testing.forgeAuditEntry(randomUUID(), null)).rejects.toThrow(/No audit entry/);
  });

  it('forgets an owner whose temporary files were all used', async () => {
    const adapters = createMemoryAdapters();
    adapters.testing.putTemporaryFile('manager:m', 'a.pdf', new Uint8Array([1]));
    const [file] = (await adapters.documentStorage.listTemporary('manager:m'))._unsafeUnwrap();
    (
      await adapters.documentStorage.deleteTemporary('manager:m', [
        { filename: 'a.pdf', version: file?.version ?? '' },
      ])
    )._unsafeUnwrap();
    expect(adapters.testing.listTemporaryOwners()).toEqual([]);
  });

  it("passes a memory kit's options to the kit", () => {
    expect(() => createMemoryKit({ kitOptions: { apiKeyCacheTtlMs: -1 } })).toThrow(TypeError);
  });
});
