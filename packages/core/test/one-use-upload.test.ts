import { createMemoryAdapters } from '@onboarding-kit/memory';
import { errAsync, ResultAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { type DocumentStorage, storageUnavailable } from '../src/adapter.js';
import {
  createControllableClock,
  createOnboardingKit,
  type DomainError,
  exampleIndividualPayload,
  type ManagerPrincipal,
  principalKey,
} from '../src/index.js';
import { aManager, createMemoryKit } from './support/memory-kit.js';

/**
 * An uploaded file is used by at most one command: parallel commands naming one upload make one
 * client and one permanent copy; the others are refused at the field and copy nothing. A command
 * that fails after claiming frees the file at once; one that crashed frees it when its claim expires.
 */
const compliance = { kind: 'compliance', complianceId: 'compliance-1' } as const;
const refusedAt = (path: string, filename: string) => ({
  type: 'ValidationFailed',
  reason: 'Some documents are used by another request',
  parameterErrors: {
    [path]: [`File "${filename}" is used by another request: upload it again to use it here`],
  },
});
const split = <T>(outcomes: readonly { isOk(): boolean; isErr(): boolean }[]) => ({
  ok: outcomes.filter((outcome) => outcome.isOk()).length,
  errors: outcomes.flatMap((outcome) =>
    outcome.isErr() ? [(outcome as unknown as { error: DomainError }).error] : [],
  ) as T[],
});

describe('one upload, many parallel commands (memory)', () => {
  it('20 parallel creates naming one file: one created, 19 refused at the field, one permanent copy', async () => {
    const { kit, adapters, upload } = createMemoryKit();
    const manager = aManager();
    upload(manager, 'passport.pdf');
    const payload = exampleIndividualPayload({ idDocuments: ['passport.pdf'] });
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => kit.clients.createIndividual(manager, payload)),
    );
    const { ok, errors } = split(outcomes);
    expect({ ok, refused: errors.length }).toEqual({ ok: 1, refused: 19 });
    for (const error of errors) expect(error).toEqual(refusedAt('profile.idDocuments[0]', 'passport.pdf'));
    expect(adapters.testing.listDocumentKeys()).toHaveLength(1);
    expect(adapters.testing.readTemporaryFile(principalKey(manager), 'passport.pdf')).toBeNull();
  });

  it('20 parallel resubmissions of 20 clients naming one file: one resubmitted, one copy', async () => {
    const { kit, adapters, upload } = createMemoryKit();
    const manager = aManager();
    const clientIds: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      upload(manager, `passport-${i}.pdf`);
      const client = (
        await kit.clients.createIndividual(
          manager,
          exampleIndividualPayload({ idDocuments: [`passport-${i}.pdf`] }),
        )
      )._unsafeUnwrap();
      (
        await kit.compliance.requestResubmission(compliance, client.id, { reason: 'Blurred' })
      )._unsafeUnwrap();
      clientIds.push(client.id);
    }
    const copiesBefore = adapters.testing.listDocumentKeys().length;
    upload(manager, 'new-passport.pdf');
    const payload = exampleIndividualPayload({ idDocuments: ['new-passport.pdf'] });
    const outcomes = await Promise.all(
      clientIds.map((clientId) => kit.clients.resubmitIndividual(manager, clientId, payload)),
    );
    const { ok, errors } = split(outcomes);
    expect({ ok, refused: errors.length }).toEqual({ ok: 1, refused: 19 });
    for (const error of errors)
      expect(error).toEqual(refusedAt('profile.idDocuments[0]', 'new-passport.pdf'));
    expect(adapters.testing.listDocumentKeys()).toHaveLength(copiesBefore + 1);
  });

  it('a file used once is refused to the next command; uploaded again, it is usable again', async () => {
    const { kit, adapters, upload } = createMemoryKit();
    const manager = aManager();
    upload(manager, 'passport.pdf');
    const payload = exampleIndividualPayload({ idDocuments: ['passport.pdf'] });
    const first = (await kit.clients.createIndividual(manager, payload))._unsafeUnwrap();
    // Its temporary copy went with the use: the next command is refused at the field.
    expect((await kit.clients.createIndividual(manager, payload))._unsafeUnwrapErr()).toEqual({
      type: 'ValidationFailed',
      reason: 'Some documents cannot be used',
      parameterErrors: {
        'profile.idDocuments[0]': ['File "passport.pdf" is not in your temporary storage: upload it first'],
      },
    });
    upload(manager, 'passport.pdf');
    const second = (await kit.clients.createIndividual(manager, payload))._unsafeUnwrap();
    expect(second.individualProfile?.idDocuments).not.toEqual(first.individualProfile?.idDocuments);
    expect(adapters.testing.listDocumentKeys()).toHaveLength(2);
  });
});

/** A kit whose storage can fail or hang a copy, as an outage or a crashed process would. */
const kitWithCopyFaults = () => {
  const clock = createControllableClock(new Date('2026-03-01T09:00:00.000Z'));
  const adapters = createMemoryAdapters({ clock });
  let nextCopy: 'fail' | 'hang' | null = null;
  const signal = () => {
    let resolve: () => void = () => undefined;
    const promise = new Promise<void>((settle) => {
      resolve = settle;
    });
    return { promise, resolve };
  };
  let hung = signal();
  const documentStorage: DocumentStorage = {
    ...adapters.documentStorage,
    copyToPermanent: (items) => {
      const fault = nextCopy;
      nextCopy = null;
      if (fault === 'fail') return errAsync(storageUnavailable('memory')(new Error('injected outage')));
      // A process that died during its copy: the command never ends, its claim is never released.
      if (fault === 'hang') {
        hung.resolve();
        return new ResultAsync(new Promise(() => undefined));
      }
      return adapters.documentStorage.copyToPermanent(items);
    },
  };
  const kit = createOnboardingKit({ ...adapters, documentStorage });
  const manager: ManagerPrincipal = aManager();
  const upload = (filename: string) =>
    adapters.testing.putTemporaryFile(principalKey(manager), filename, new Uint8Array(64).fill(1));
  return {
    kit,
    adapters,
    clock,
    manager,
    upload,
    faultNextCopy: (fault: 'fail' | 'hang') => {
      nextCopy = fault;
      hung = signal();
    },
    /** Resolves once a hung copy is reached: the command holds its claims from then on. */
    copyHung: () => hung.promise,
  };
};

describe('a claim on an upload after a failure or a crash', () => {
  it('a create whose copy fails (storage outage) frees the file: the retry uses it at once', async () => {
    const { kit, manager, upload, faultNextCopy } = kitWithCopyFaults();
    upload('passport.pdf');
    const payload = exampleIndividualPayload({ idDocuments: ['passport.pdf'] });
    faultNextCopy('fail');
    expect((await kit.clients.createIndividual(manager, payload))._unsafeUnwrapErr()).toMatchObject({
      type: 'StorageUnavailable',
    });
    (await kit.clients.createIndividual(manager, payload))._unsafeUnwrap();
  });

  it('a create refused for one file frees the others it claimed', async () => {
    const { kit, manager, upload, faultNextCopy, copyHung } = kitWithCopyFaults();
    upload('held.pdf');
    upload('free.pdf');
    faultNextCopy('hang');
    void kit.clients.createIndividual(manager, exampleIndividualPayload({ idDocuments: ['held.pdf'] }));
    await copyHung();
    const both = exampleIndividualPayload({ idDocuments: ['free.pdf', 'held.pdf'] });
    expect((await kit.clients.createIndividual(manager, both))._unsafeUnwrapErr()).toEqual(
      refusedAt('profile.idDocuments[1]', 'held.pdf'),
    );
    (
      await kit.clients.createIndividual(manager, exampleIndividualPayload({ idDocuments: ['free.pdf'] }))
    )._unsafeUnwrap();
  });

  it('a resubmission refused once it ran (the client was deleted meanwhile) frees the file', async () => {
    const { kit, adapters, manager, upload } = kitWithCopyFaults();
    upload('first.pdf');
    const client = (
      await kit.clients.createIndividual(manager, exampleIndividualPayload({ idDocuments: ['first.pdf'] }))
    )._unsafeUnwrap();
    (await kit.compliance.requestResubmission(compliance, client.id, { reason: 'Blurred' }))._unsafeUnwrap();
    upload('second.pdf');
    // Deleted between the resubmission's first check and its transaction: refused inside it.
    const copy = adapters.documentStorage.copyToPermanent;
    const payload = exampleIndividualPayload({ idDocuments: ['second.pdf'] });
    const racing = createOnboardingKit({
      ...adapters,
      documentStorage: {
        ...adapters.documentStorage,
        copyToPermanent: (items) =>
          copy(items).andThen(() =>
            ResultAsync.fromSafePromise(kit.clients.delete(manager, client.id)).map(() => undefined),
          ),
      },
    });
    expect(
      (await racing.clients.resubmitIndividual(manager, client.id, payload))._unsafeUnwrapErr(),
    ).toMatchObject({
      type: 'InvalidStatus',
    });
    (await kit.clients.createIndividual(manager, payload))._unsafeUnwrap();
  });

  it('a create that crashed after claiming holds the file until its claim expires, not for ever', async () => {
    const { kit, clock, manager, upload, faultNextCopy, copyHung } = kitWithCopyFaults();
    upload('passport.pdf');
    const payload = exampleIndividualPayload({ idDocuments: ['passport.pdf'] });
    faultNextCopy('hang');
    void kit.clients.createIndividual(manager, payload);
    await copyHung();
    expect((await kit.clients.createIndividual(manager, payload))._unsafeUnwrapErr()).toEqual(
      refusedAt('profile.idDocuments[0]', 'passport.pdf'),
    );
    // The claim lives as long as a request may hold its idempotency key: 5 min of renewals + 60 s.
    clock.advance(6 * 60_000 - 1);
    expect((await kit.clients.createIndividual(manager, payload)).isErr()).toBe(true);
    clock.advance(1);
    (await kit.clients.createIndividual(manager, payload))._unsafeUnwrap();
  });
});
