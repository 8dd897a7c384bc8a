import {
  type Client,
  type CompliancePrincipal,
  type DomainError,
  exampleEntityPayload,
  type IdempotentCommandContext,
  type ManagerPrincipal,
  type OnboardingKit,
  principalKey,
} from '@onboarding-kit/core';
import type { Result } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { openFixture, type Teardown } from './test-fixture.js';

export type ErasureRetryContractFixture = Teardown & {
  /** A kit whose persistence ports are the back end's. */
  readonly kit: OnboardingKit;
  readonly manager: ManagerPrincipal;
  /** The answer the back end's idempotency store keeps under `scope` and `key`, as text; null if none. */
  storedAnswer(scope: string, key: string): Promise<string | null>;
};

export type ErasureRetryContractOptions = {
  readonly name: string;
  readonly setup: () => Promise<ErasureRetryContractFixture>;
};

const erasingOfficer: CompliancePrincipal = { kind: 'compliance', complianceId: 'officer-1' };

/** Runs `command` under an Idempotency-Key as the binding does: claim, then replay or run. */
const keyed = async (
  kit: OnboardingKit,
  owner: string,
  scope: string,
  key: string,
  body: unknown,
  command: (context: IdempotentCommandContext) => PromiseLike<Result<Client, DomainError>>,
) => {
  const claim = (await kit.idempotency.claim({ scope, key, owner, body }))._unsafeUnwrap();
  if (claim.type === 'Replay') return { replayed: claim.outcome } as const;
  return { ran: (await command({ claim: claim.ref }))._unsafeUnwrap() } as const;
};

/**
 * Erasure holds against retries, on any back end: create with a key, delete with a key, redact;
 * then the same create (key and body) again, and the same delete. Each replays its answer,
 * redacted, nothing runs again, and the stored answers hold nothing of the client.
 */
export const runErasureRetryContract = ({ name, setup }: ErasureRetryContractOptions) =>
  describe(`erasure holds against retries (${name})`, () => {
    it("a retry of an erased client's create or delete replays its redacted answer, and never runs again", async () => {
      const { kit, manager, storedAnswer } = await openFixture(setup);
      const owner = principalKey(manager);
      const body = exampleEntityPayload();
      const createScope = `${owner}|POST|/clients/entities`;
      const create = () =>
        keyed(kit, owner, createScope, 'create-1', body, (context) =>
          kit.clients.createEntity(manager, body, context),
        );
      const created = (await create()).ran;
      if (created === undefined) throw new Error('the create ran');
      const deleteScope = `${owner}|DELETE|/clients/${created.id}`;
      const remove = () =>
        keyed(kit, owner, deleteScope, 'delete-1', undefined, (context) =>
          kit.clients.delete(manager, created.id, context),
        );
      expect((await remove()).ran?.status).toBe('DELETED');
      const redacted = (await kit.redaction.redact(erasingOfficer, created.id))._unsafeUnwrap();

      const createAgain = await create();
      expect(createAgain.ran).toBeUndefined();
      expect(createAgain.replayed).toEqual({
        kind: 'command',
        ok: true,
        value: {
          ...redacted,
          status: 'ONBOARDING_UNDER_REVIEW',
          deletedAt: null,
          updatedAt: created.updatedAt,
          // What was asked of the client then (kit-made messages, no personal data).
          requirements: created.requirements,
        },
      });
      const removeAgain = await remove();
      expect(removeAgain.ran).toBeUndefined();
      expect(removeAgain.replayed).toMatchObject({
        kind: 'command',
        ok: true,
        value: { id: created.id, status: 'DELETED', company: null, redactedAt: redacted.redactedAt },
      });
      // One client, erased: no second one holding the erased data.
      const clients = (await kit.clients.list(manager, {}))._unsafeUnwrap().data;
      expect(clients.map((client) => [client.id, client.status, client.company])).toEqual([
        [created.id, 'DELETED', null],
      ]);
      expect(JSON.stringify([createAgain, removeAgain])).not.toContain(body.company.name);
      // The stored answers hold nothing of the client but its ids and dates.
      for (const [scope, key] of [
        [createScope, 'create-1'],
        [deleteScope, 'delete-1'],
      ] as const) {
        const answer = await storedAnswer(scope, key);
        expect(answer).toContain(created.id);
        expect(answer).not.toContain(body.company.name);
      }
    });
  });
