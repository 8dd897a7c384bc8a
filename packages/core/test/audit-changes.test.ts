import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auditChanges } from '../src/domain/audit-entry.js';
import type { StoredClient } from '../src/domain/client.js';
import { aCreatedIndividual } from './support/memory-kit.js';

/** A stored client made by a create, to change field by field. */
const storedClient = async (): Promise<StoredClient> => {
  const { adapters, client } = await aCreatedIndividual();
  const stored = adapters.testing.readClient(client.id);
  if (stored === null) expect.fail('the client was not stored');
  return structuredClone(stored);
};

/** `client` with its individual profile replaced by `profile` (any shape: the diff takes what it gets). */
const withProfile = (client: StoredClient, profile: unknown): StoredClient =>
  ({ ...client, individualProfile: profile }) as StoredClient;

describe('auditChanges: the fields that differ, one leaf per JSON path', () => {
  it('a create lists every leaf from null, in the order of the fields, and no stamp', async () => {
    const client = await storedClient();
    const changes = auditChanges(null, client);
    expect(changes[0]).toEqual({ path: 'status', before: null, after: 'ONBOARDING_UNDER_REVIEW' });
    expect(changes.every(({ before }) => before === null)).toBe(true);
    expect(changes.map(({ path }) => path)).toContain('profile.lastName');
    expect(changes.some(({ path }) => /(^|\.)(id|createdAt|updatedAt|deletedAt)$/.test(path))).toBe(false);
    // Null leaves of a create are no change.
    expect(changes.some(({ after }) => after === null)).toBe(false);
  });

  it('the same client twice lists nothing, even as another copy', async () => {
    const client = await storedClient();
    expect(auditChanges(client, structuredClone(client))).toEqual([]);
  });

  it('lists a changed leaf, an added and a removed array item by index', async () => {
    const client = await storedClient();
    const profile = client.individualProfile as Record<string, unknown>;
    const changed = withProfile(client, { ...profile, lastName: 'Martin', tags: ['a', 'b'] });
    const before = withProfile(client, { ...profile, tags: ['a', 'c', 'd'] });
    expect(auditChanges(before, changed)).toEqual([
      { path: 'profile.lastName', before: profile.lastName, after: 'Martin' },
      { path: 'profile.tags[1]', before: 'c', after: 'b' },
      { path: 'profile.tags[2]', before: 'd', after: null },
    ]);
  });

  it('a leaf that becomes nested (or the reverse) is one change of the whole value', async () => {
    const client = await storedClient();
    const before = withProfile(client, { note: 'text' });
    const after = withProfile(client, { note: { line: 'text' } });
    expect(auditChanges(before, after)).toEqual([
      { path: 'profile.note', before: 'text', after: { line: 'text' } },
    ]);
    expect(auditChanges(after, before)).toEqual([
      { path: 'profile.note', before: { line: 'text' }, after: 'text' },
    ]);
  });

  it('an array that becomes an object keeps indexes and names apart', async () => {
    const client = await storedClient();
    const before = withProfile(client, { list: ['x'] });
    const after = withProfile(client, { list: { '0': 'y' } });
    expect(auditChanges(before, after)).toEqual([
      { path: 'profile.list[0]', before: 'x', after: null },
      { path: 'profile.list["0"]', before: null, after: 'y' },
    ]);
  });

  it('compares leaves as JSON: a number JSON writes as null is no change from null', async () => {
    const client = await storedClient();
    const before = withProfile(client, { a: null, b: 1, c: true, d: 'true' });
    const after = withProfile(client, { a: Number.NaN, b: 1, c: 'true', d: true });
    expect(auditChanges(before, after)).toEqual([
      { path: 'profile.c', before: true, after: 'true' },
      { path: 'profile.d', before: 'true', after: true },
    ]);
  });

  it('reads own properties only: a `__proto__` key is data, an inherited one is not there', async () => {
    const client = await storedClient();
    const before = withProfile(client, JSON.parse('{"__proto__": {"x": 1}}'));
    const after = withProfile(client, Object.create({ inherited: 'yes' }));
    expect(auditChanges(before, after)).toEqual([{ path: 'profile.__proto__.x', before: 1, after: null }]);
  });

  it('a create lists what the comparison with a client holding nothing lists, whatever the values', async () => {
    const client = await storedClient();
    const holdingNothing = {
      ...client,
      status: null,
      onboardingResubmissionReason: null,
      individualProfile: null,
      individualSourceOfFunds: null,
      bankAccounts: [],
      blockchainWallets: [],
    } as unknown as StoredClient;
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), fc.double(), (profile, sourceOfFunds, number) => {
        const after = {
          ...withProfile(client, profile),
          individualSourceOfFunds: {
            sourceOfFunds,
            number,
            hole: new Array<number>(3).fill(1, 0, 1),
            nothing: undefined,
          },
        } as unknown as StoredClient;
        expect(auditChanges(null, after)).toEqual(auditChanges(holdingNothing, after));
      }),
    );
  });
});
