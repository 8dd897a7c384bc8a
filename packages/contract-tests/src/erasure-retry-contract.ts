import {
  type Client,
  type CompliancePrincipal,
  type DomainError,
  exampleEntityPayload,
  exampleIndividualPayload,
  type IdempotentCommandContext,
  type ManagerPrincipal,
  type OnboardingKit,
  principalKey,
} from '@onboarding-kit/core';
import {
  type DocumentStorage,
  fingerprintRequestBody,
  type RecordedOutcome,
  type ScreeningProvider,
  screeningNameKeys,
} from '@onboarding-kit/core/adapter';
import { okAsync, type Result } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { openFixture, type Teardown } from './test-fixture.js';

export type ErasureRetryContractFixture = Teardown & {
  /** A kit whose persistence ports are the back end's. */
  readonly kit: OnboardingKit;
  readonly manager: ManagerPrincipal;
  /** The answer the back end's idempotency store keeps under `scope` and `key`, as text; null if none. */
  storedAnswer(scope: string, key: string): Promise<string | null>;
  /** Every row the back end stores (its tables, indexes and job queues), as one text to search. */
  dump(): Promise<string>;
  /** Puts a file in the manager's temporary storage, as an upload through its link would. */
  upload(filename: string): void | Promise<void>;
  /** The key (and owner) of every object in the kit's document storage, both areas, as text. */
  storageKeys(): Promise<string>;
};

/** The ports a test gives the kit besides the back end's. */
export type ErasureRetryPorts = { readonly screening?: ScreeningProvider };

export type ErasureRetryContractOptions = {
  readonly name: string;
  readonly setup: (ports?: ErasureRetryPorts) => Promise<ErasureRetryContractFixture>;
};

/** Every object key of a document storage, as its port lists them: the uploads of `owners`, every document. */
export const storageKeysOf = async (storage: DocumentStorage, owners: readonly string[]): Promise<string> => {
  const temporary = await Promise.all(
    owners.map(async (owner) => [owner, (await storage.listTemporary(owner))._unsafeUnwrap()] as const),
  );
  const permanent = (await storage.listPermanent(null, 10_000))._unsafeUnwrap();
  return JSON.stringify({ temporary, permanent: permanent.documents.map((document) => document.key) });
};

const erasingOfficer: CompliancePrincipal = { kind: 'compliance', complianceId: 'officer-1' };

/** Runs `command` under an Idempotency-Key as the binding does: claim, then replay or run. */
const keyed = async <T = Client>(
  kit: OnboardingKit,
  owner: string,
  scope: string,
  key: string,
  body: unknown,
  command: (context: IdempotentCommandContext) => PromiseLike<Result<T, DomainError>>,
) => {
  const claim = (await kit.idempotency.claim({ scope, key, owner, body }))._unsafeUnwrap();
  if (claim.type === 'Replay') return { replayed: claim.outcome } as const;
  return { ran: (await command({ claim: claim.ref }))._unsafeUnwrap() } as const;
};

/** Claims `key` and answers its ref: a request whose process dies before it completes. */
const claimed = async (kit: OnboardingKit, owner: string, scope: string, key: string, body: unknown) => {
  const claim = (await kit.idempotency.claim({ scope, key, owner, body }))._unsafeUnwrap();
  if (claim.type !== 'Claimed') throw new Error(`expected a claim of ${key}`);
  return claim.ref;
};

/** Letters only, random: a word no other test's names share. */
const randomWord = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) => String.fromCharCode(97 + (byte % 26))).join(
    '',
  );

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

    it('after redaction, no stored row keeps a digest of a request that carried the client, nor a name key of its names', async () => {
      // A provider that matches no one: the screening completes CLEAR, and indexes the names.
      const screening: ScreeningProvider = { screen: () => okAsync([]) };
      const { kit, manager, dump } = await openFixture(() => setup({ screening }));
      const owner = principalKey(manager);
      const officer = principalKey(erasingOfficer);
      const word = `Zvyagin${randomWord()}`;
      const example = exampleEntityPayload();
      const body = { ...example, company: { ...example.company, name: `${word} Numérique SAS` } };
      const createScope = `${owner}|POST|/clients/entities`;
      const create = (sent: unknown) =>
        keyed(kit, owner, createScope, 'create-1', sent, (context) =>
          kit.clients.createEntity(manager, sent, context),
        );
      const created = (await create(body)).ran;
      if (created === undefined) throw new Error('the create ran');
      (await kit.screening.runJob({ type: 'screen-client', clientId: created.id }))._unsafeUnwrap();
      const path = `/clients/${created.id}`;

      // Every kind of record a request carrying the client's data leaves under its key:
      // a compliance move on its path that ran,
      const asked = { reason: `The registry names ${word} twice` };
      await keyed(kit, officer, `${officer}|POST|${path}/request-resubmission`, 'ask-1', asked, (context) =>
        kit.compliance.requestResubmission(erasingOfficer, created.id, asked, context),
      );
      // a resubmission whose process died while it ran (still in progress),
      const resubmitted = { ...body, company: { ...body.company, registeredAddress: `1 rue ${word}` } };
      await claimed(kit, owner, `${owner}|PUT|${path}/onboarding`, 'resubmit-1', resubmitted);
      // a host route on the client's path whose answer (a redirect) does not name the client,
      const note = { note: `Called ${word} about the registry` };
      const noteRef = await claimed(kit, owner, `${owner}|POST|/host${path}/notes`, 'note-1', note);
      const redirect: RecordedOutcome = { kind: 'response', status: 303, body: { location: '/notes' } };
      (await kit.idempotency.complete(noteRef, redirect))._unsafeUnwrap();
      // the delete, then a terms signature refused because the client is deleted (a refusal).
      await keyed(kit, owner, `${owner}|DELETE|${path}`, 'delete-1', undefined, (context) =>
        kit.clients.delete(manager, created.id, context),
      );
      const terms = { termsVersion: 'v1', signedAt: created.createdAt, signatoryName: `Ada ${word}` };
      const termsRef = await claimed(kit, officer, `${officer}|POST|${path}/terms-signed`, 'terms-1', terms);
      const refused = await kit.compliance.markTermsSigned(erasingOfficer, created.id, terms, {
        claim: termsRef,
      });
      expect(refused._unsafeUnwrapErr().type).toBe('InvalidStatus');

      // The derived forms of what those requests carried: their fingerprints (SHA-256 of their
      // canonical JSON), and the index keys of the client's name that no other name has.
      const digests = [body, asked, resubmitted, note, terms].map((sent) =>
        fingerprintRequestBody(sent)._unsafeUnwrap(),
      );
      const exampleKeys = new Set(screeningNameKeys(example.company.name));
      const nameKeys = screeningNameKeys(body.company.name).filter((key) => !exampleKeys.has(key));
      expect(nameKeys.length).toBeGreaterThan(0);
      const before = await dump();
      for (const digest of digests) expect(before).toContain(digest);
      expect(nameKeys.some((key) => before.includes(key))).toBe(true);
      expect(before).toContain(word);

      (await kit.redaction.redact(erasingOfficer, created.id))._unsafeUnwrap();
      const after = await dump();
      const left = [...digests, ...nameKeys, word.toLowerCase()].filter((value) =>
        after.toLowerCase().includes(value.toLowerCase()),
      );
      expect(left).toEqual([]);

      // A retry of the create, with its body or another, replays the redacted answer: no 422, no
      // second client.
      for (const sent of [body, { ...body, company: { ...body.company, name: 'Another SAS' } }]) {
        const again = await create(sent);
        expect(again.ran).toBeUndefined();
        expect(again.replayed).toMatchObject({
          kind: 'command',
          ok: true,
          value: { id: created.id, company: null },
        });
      }
      const clients = (await kit.clients.list(manager, {}))._unsafeUnwrap().data;
      expect(clients.map((client) => client.id)).toEqual([created.id]);
    });
    it("after redaction, no stored upload or download request and no storage key keeps the client's file names", async () => {
      const { kit, manager, dump, upload, storageKeys, storedAnswer } = await openFixture(setup);
      const owner = principalKey(manager);
      const word = `Smithson${randomWord()}`;
      const filename = `passport-${word}.pdf`;
      const uploadBody = { filenames: [filename] };
      const uploadScope = `${owner}|POST|/uploads/request-batch-upload`;
      await keyed(kit, owner, uploadScope, 'upload-1', uploadBody, (context) =>
        kit.documents.requestUploadBatch(manager, uploadBody, context),
      );
      await upload(filename);
      const body = exampleIndividualPayload({ idDocuments: [filename] });
      const created = (
        await keyed(kit, owner, `${owner}|POST|/clients/individuals`, 'create-1', body, (context) =>
          kit.clients.createIndividual(manager, body, context),
        )
      ).ran;
      const documentKey = created?.individualProfile?.idDocuments[0];
      if (created === undefined || documentKey === undefined) throw new Error('the create ran');
      const downloadBody = { filenames: [documentKey] };
      const downloadScope = `${owner}|POST|/documents/request-batch-download`;
      await keyed(kit, owner, downloadScope, 'download-1', downloadBody, (context) =>
        kit.documents.requestDownloadBatch(manager, downloadBody, context),
      );
      const digests = [uploadBody, downloadBody].map((sent) => fingerprintRequestBody(sent)._unsafeUnwrap());
      const before = await dump();
      for (const digest of digests) expect(before).toContain(digest);
      expect(await storageKeys()).toContain(word);
      (await kit.clients.delete(manager, created.id))._unsafeUnwrap();

      const redacted = (await kit.redaction.redact(erasingOfficer, created.id))._unsafeUnwrap();
      expect((await storageKeys()).toLowerCase()).not.toContain(word.toLowerCase());
      const after = await dump();
      expect(digests.filter((digest) => after.includes(digest))).toEqual([]);
      // Nor any row: the document index (filename and key), the `documents.promoted` event, the
      // trail's `documents` (its create and download entries), in any case.
      expect(after.toLowerCase()).not.toContain(word.toLowerCase());
      // The document answers a download as any document gone, by its key as it was or as it is.
      const redactedKey = `${documentKey.slice(0, documentKey.indexOf('_'))}_[redacted]`;
      expect(after).toContain(redactedKey);
      for (const key of [documentKey, redactedKey]) {
        const refused = await kit.documents.requestDownloadBatch(manager, { filenames: [key] });
        expect(refused._unsafeUnwrapErr()).toMatchObject({ type: 'DocumentNotFound', keys: [key] });
      }
      // Redacting again (a retry after a lost answer) changes nothing and records nothing more.
      const trail = (await kit.audit.list(erasingOfficer, created.id, { limit: 100 }))._unsafeUnwrap();
      expect((await kit.redaction.redact(erasingOfficer, created.id))._unsafeUnwrap()).toEqual(redacted);
      expect((await kit.audit.list(erasingOfficer, created.id, { limit: 100 }))._unsafeUnwrap()).toEqual(
        trail,
      );
      const verified = (await kit.audit.verify(erasingOfficer, created.id))._unsafeUnwrap();
      expect(verified).toMatchObject({ verified: true, checkedEntries: trail.data.length });
      for (const [scope, key] of [
        [uploadScope, 'upload-1'],
        [downloadScope, 'download-1'],
      ] as const) {
        const answer = await storedAnswer(scope, key);
        expect(answer?.toLowerCase() ?? '').not.toContain(word.toLowerCase());
      }
      // A retry of the upload request replays its answer, shaped, naming nothing.
      const again = await keyed(kit, owner, uploadScope, 'upload-1', uploadBody, (context) =>
        kit.documents.requestUploadBatch(manager, uploadBody, context),
      );
      expect(again.ran).toBeUndefined();
      expect(again.replayed).toMatchObject({
        kind: 'command',
        ok: true,
        value: { uploads: [{ filename: '[redacted]', uploadUrl: '[redacted]' }] },
      });
    });
  });
