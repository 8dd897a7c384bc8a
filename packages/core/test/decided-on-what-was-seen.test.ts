import { createMemoryAdapters } from '@onboarding-kit/memory';
import type { ResultAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import {
  type Client,
  type ClientCommandContext,
  type CompliancePrincipal,
  clientVersion,
  createControllableClock,
  createOnboardingKit,
  type DomainError,
  exampleIndividualPayload,
  type OnboardingKit,
  principalKey,
} from '../src/index.js';
import { listingEveryone } from './support/listing-everyone.js';
import { aManager } from './support/memory-kit.js';

const alice: CompliancePrincipal = { kind: 'compliance', complianceId: 'alice' };
const bob: CompliancePrincipal = { kind: 'compliance', complianceId: 'bob' };
const carol: CompliancePrincipal = { kind: 'compliance', complianceId: 'carol' };

/**
 * A memory kit under a stopped clock (every write has the same `updatedAt`, as two writes in one
 * millisecond have), with a manager and one individual client under review.
 */
const aClientUnderReview = async (options: { readonly screened?: boolean } = {}) => {
  const clock = createControllableClock(new Date('2026-03-01T09:00:00.000Z'));
  const adapters = createMemoryAdapters({
    clock,
    ...(options.screened ? { screening: listingEveryone() } : {}),
  });
  const kit = createOnboardingKit(adapters);
  const manager = aManager();
  const upload = (filename: string) =>
    adapters.testing.putTemporaryFile(principalKey(manager), filename, new Uint8Array(64).fill(7));
  upload('passport.pdf');
  const client = (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
  if (options.screened) await adapters.testing.screenDueClients(kit);
  return { kit, adapters, manager, client, upload };
};

type Setup = Awaited<ReturnType<typeof aClientUnderReview>>;
/** A step of a test's story: a kit call, or several. */
type Step = ResultAsync<unknown, DomainError> | Promise<unknown>;

/** Everything a command could write about the client: the client, its history, audit trail and events. */
const written = async ({ kit, manager, client }: Setup) => ({
  client: (await kit.review.get(alice, client.id))._unsafeUnwrap(),
  history: (await kit.review.statusHistory(alice, client.id))._unsafeUnwrap(),
  audit: (await kit.audit.list(alice, client.id, { limit: 100 }))._unsafeUnwrap().data,
  events: (await kit.events.list(manager, { clientId: client.id, limit: 100 }))._unsafeUnwrap().data,
});

const seen = async ({ kit, client }: Setup): Promise<Client> =>
  (await kit.review.get(alice, client.id))._unsafeUnwrap();

describe('a reviewer decides on the client as it was seen (ClientCommandContext.expectedVersion)', () => {
  it('an approval with the version seen before a resubmission is ClientChanged, and writes nothing', async () => {
    const setup = await aClientUnderReview();
    const { kit, manager, client, upload } = setup;
    const view = await seen(setup);
    // Between alice's view and her approval: bob asks for a resubmission, the manager resubmits.
    (
      await kit.compliance.requestResubmission(bob, client.id, { reason: 'Another passport' })
    )._unsafeUnwrap();
    upload('passport-2.pdf');
    const payload = exampleIndividualPayload({ idDocuments: ['passport-2.pdf'] });
    (
      await kit.clients.resubmitIndividual(manager, client.id, {
        ...payload,
        profile: { ...payload.profile, lastName: 'Someone-Else' },
      })
    )._unsafeUnwrap();
    const before = await written(setup);
    // Under one millisecond (here: a stopped clock) updatedAt does not tell the two apart.
    expect(before.client.updatedAt).toBe(view.updatedAt);
    expect(before.client.status).toBe('ONBOARDING_UNDER_REVIEW');

    const stale = await kit.compliance.approve(alice, client.id, { expectedVersion: clientVersion(view) });
    expect(stale._unsafeUnwrapErr()).toEqual({ type: 'ClientChanged', clientId: client.id });
    expect(await written(setup)).toEqual(before);

    // The version of what is there now approves it.
    const fresh = await kit.compliance.approve(alice, client.id, {
      expectedVersion: clientVersion(before.client),
    });
    expect(fresh._unsafeUnwrap().status).toBe('WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE');
  });

  it('without an expected version a command runs as before; a forged one is ClientChanged', async () => {
    const setup = await aClientUnderReview();
    const forged = await setup.kit.compliance.approve(alice, setup.client.id, {
      expectedVersion: 'f'.repeat(64),
    });
    expect(forged._unsafeUnwrapErr().type).toBe('ClientChanged');
    const unchecked = await setup.kit.compliance.approve(alice, setup.client.id);
    expect(unchecked._unsafeUnwrap().status).toBe('WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE');
  });

  /**
   * Every command a reviewer decides on, each from a state where it would succeed: the client
   * changes after the view without a status change (an assignment, a screening result), the command
   * with the old version is refused and writes nothing, and the same command with the version of
   * the client as it now is succeeds.
   */
  const commands: ReadonlyArray<{
    readonly name: string;
    readonly screened?: boolean;
    /** Brings the client to the state the command starts from. */
    readonly before?: (setup: Setup) => Step;
    /** What changes between the reviewer's view and the command. */
    readonly change: (setup: Setup) => Step;
    readonly run: (
      kit: OnboardingKit,
      client: Client,
      context: ClientCommandContext,
    ) => ReturnType<OnboardingKit['compliance']['approve']>;
  }> = [
    {
      name: 'approve',
      change: ({ kit, client }) => kit.review.assign(bob, client.id),
      run: (kit, client, context) => kit.compliance.approve(alice, client.id, context),
    },
    {
      name: 'request a resubmission',
      change: ({ kit, client }) => kit.review.assign(bob, client.id),
      run: (kit, client, context) =>
        kit.compliance.requestResubmission(alice, client.id, { reason: 'Blurred' }, context),
    },
    {
      name: 'record the signed terms',
      before: ({ kit, client }) => kit.compliance.approve(alice, client.id),
      change: ({ kit, client }) => kit.review.assign(bob, client.id),
      run: (kit, client, context) => kit.compliance.markTermsSigned(alice, client.id, undefined, context),
    },
    {
      name: 'delete',
      change: ({ kit, client }) => kit.review.assign(bob, client.id),
      run: (kit, client, context) => kit.review.delete(alice, client.id, context),
    },
    {
      // The page showed "Unassigned": alice does not take the client from bob without seeing him.
      name: 'assign',
      change: ({ kit, client }) => kit.review.assign(bob, client.id),
      run: (kit, client, context) => kit.review.assign(alice, client.id, context),
    },
    {
      name: 'release',
      before: ({ kit, client }) => kit.review.assign(bob, client.id),
      change: ({ kit, client }) => kit.review.assign(carol, client.id),
      run: (kit, client, context) => kit.review.release(alice, client.id, context),
    },
    {
      name: 'redact (its documents kept too)',
      before: async ({ kit, client }) => {
        (await kit.review.assign(bob, client.id))._unsafeUnwrap();
        return kit.review.delete(bob, client.id);
      },
      change: ({ kit, client }) => kit.review.release(bob, client.id),
      run: (kit, client, context) => kit.redaction.redact(alice, client.id, context),
    },
    {
      name: 'resolve a screening hit (after a screening result)',
      screened: true,
      change: ({ kit, client }) => kit.review.assign(bob, client.id),
      run: (kit, client, context) => {
        const hit = client.screening?.hits[0];
        return kit.screening.resolveHit(
          alice,
          client.id,
          hit?.id ?? '',
          { decision: 'DISMISSED', reason: 'Another person' },
          context,
        );
      },
    },
  ];

  for (const command of commands) {
    it(`${command.name}: the version seen before the change is ClientChanged, nothing written`, async () => {
      const setup = await aClientUnderReview({ screened: command.screened ?? false });
      if (command.before) await command.before(setup);
      const view = await seen(setup);
      await command.change(setup);
      const before = await written(setup);
      const documentsBefore = (await setup.adapters.documentStorage.listPermanent(null, 100))._unsafeUnwrap();
      expect(clientVersion(before.client)).not.toBe(clientVersion(view));

      const stale = await command.run(setup.kit, before.client, { expectedVersion: clientVersion(view) });
      expect(stale._unsafeUnwrapErr() satisfies DomainError).toEqual({
        type: 'ClientChanged',
        clientId: setup.client.id,
      });
      expect(await written(setup)).toEqual(before);
      expect((await setup.adapters.documentStorage.listPermanent(null, 100))._unsafeUnwrap()).toEqual(
        documentsBefore,
      );

      const fresh = await command.run(setup.kit, before.client, {
        expectedVersion: clientVersion(before.client),
      });
      expect(fresh.isOk()).toBe(true);
    });
  }

  it('a screening result changes the version, even where updatedAt cannot tell (a stopped clock)', async () => {
    const setup = await aClientUnderReview({ screened: true });
    // The answer of the create, before the screening ran; then the client as screened.
    const pending = setup.client;
    const screened = await seen(setup);
    expect(pending.screening?.status).toBe('PENDING');
    expect(screened.screening?.status).toBe('POSSIBLE_MATCH');
    expect(screened.updatedAt).toBe(pending.updatedAt);
    expect(clientVersion(screened)).not.toBe(clientVersion(pending));
  });
});
