import {
  type ClientStatus,
  demoClientA1,
  demoIdentities,
  type OnboardingKit,
  principalKey,
  type StatusHistoryEntry,
} from '@onboarding-kit/core';
import { type StorageUnavailable, type StoredClient, storageUnavailable } from '@onboarding-kit/core/adapter';
import { createOpenApiDocument } from '@onboarding-kit/express';
import { errAsync, okAsync, ResultAsync } from 'neverthrow';
import type { DemoAdapters } from './demo-adapters.js';

/**
 * What the OpenAPI document's examples need on a fresh demo, so that each succeeds once under
 * Swagger's "Try it out" with the demo's keys (the order a person would take: create, review,
 * resubmit, download, …; `test/try-it-out.test.ts` sends every example so):
 *
 * - manager A's uploads named by the create and resubmission examples (`passport.pdf`,
 *   `passport-renewed.pdf`): a file is used by one command only, so each example has its own;
 * - client a2 of manager A (Ada Lovelace, the terms example's signatory), under review, created the
 *   day before the terms example's `signedAt` (evidence is never older than its client), with an
 *   open screening hit (the hit-resolution example) and its passport stored under the key the
 *   download examples name.
 *
 * Everything is read from the document itself, so an example that changes changes the seed. Like
 * `seedDemoData`, it leaves what exists as it is, and runs again at every start (a restarted demo
 * on PostgreSQL finds a2, and memory storage gets the passport's bytes back).
 */

const clientA2Id = 'a2a2a2a2-0000-4000-8000-0000000000a2';
const clientA2HitId = 'a2a2a2a2-0000-4000-8000-0000000000f1';
const DAY_MS = 86_400_000;
const manager = demoIdentities.managerA.principal;

type JsonObject = Record<string, unknown>;

/** The request body example of each operation, by operationId. */
const examplesOf = (kit: OnboardingKit): Map<string, unknown> => {
  const document = createOpenApiDocument({ kitOptions: kit.options });
  const examples = new Map<string, unknown>();
  for (const methods of Object.values(document.paths)) {
    for (const operation of Object.values(methods)) {
      const body = operation.requestBody as { content?: { 'application/json'?: { example?: unknown } } };
      const example = body?.content?.['application/json']?.example;
      if (example !== undefined) examples.set(String(operation.operationId), example);
    }
  }
  return examples;
};

/** The filenames of every `...Documents` array of a payload, at any depth (decisions §4). */
const documentNames = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.flatMap(documentNames);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([field, inner]) =>
    field.endsWith('Documents') && Array.isArray(inner)
      ? inner.filter((name): name is string => typeof name === 'string')
      : documentNames(inner),
  );
};

const filenamesOf = (example: unknown): string[] =>
  ((example as { filenames?: unknown } | undefined)?.filenames as string[] | undefined) ?? [];

/** A document key is `<uuid>_<filename>`. */
const filenameOfKey = (key: string): string => key.slice(key.indexOf('_') + 1);

/** A few bytes that read as a PDF: the demo's sample scans. */
const sampleScan = (filename: string): Uint8Array =>
  new TextEncoder().encode(`%PDF-1.4\n% onboarding-kit demo: a sample scan, ${filename}\n%%EOF\n`);

const seedFailure = (cause: unknown): StorageUnavailable => storageUnavailable('demo seed')(cause);

type UploadLink = {
  readonly uploadUrl: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly fields?: Readonly<Record<string, string>> | undefined;
};

/** Sends a file through an upload link as a caller would: a PUT, or S3's form POST (fields first). */
const sendThroughLink = async (link: UploadLink, bytes: Uint8Array): Promise<void> => {
  const body = new Uint8Array(bytes);
  let sent: Response;
  if (link.method === 'POST') {
    const form = new FormData();
    for (const [name, value] of Object.entries(link.fields ?? {})) form.append(name, value);
    form.append('file', new Blob([body]), 'file');
    sent = await fetch(link.uploadUrl, { method: 'POST', headers: { ...link.headers }, body: form });
  } else {
    sent = await fetch(link.uploadUrl, { method: link.method, headers: { ...link.headers }, body });
  }
  await sent.arrayBuffer();
  if (!sent.ok) throw new Error(`the storage answered ${sent.status} to the seed's upload`);
};

/**
 * Puts the files in manager A's temporary storage: directly into the memory storage (its links
 * point to the demo's own address, which PUBLIC_BASE_URL may route elsewhere), through the kit's
 * presigned links to S3 otherwise.
 */
const uploadForManagerA = (
  kit: OnboardingKit,
  adapters: DemoAdapters,
  filenames: readonly string[],
): ResultAsync<void, StorageUnavailable> => {
  if (filenames.length === 0) return okAsync(undefined);
  if (adapters.documentStorage === 'memory') {
    for (const filename of filenames) {
      adapters.memory.testing.putTemporaryFile(principalKey(manager), filename, sampleScan(filename));
    }
    return okAsync(undefined);
  }
  return kit.documents
    .requestUploadBatch(manager, { filenames: [...filenames] })
    .mapErr(seedFailure)
    .andThen(({ uploads }) =>
      ResultAsync.fromPromise(
        Promise.all(uploads.map((link) => sendThroughLink(link, sampleScan(link.filename)))),
        seedFailure,
      ),
    )
    .map(() => undefined);
};

/** Client a2 as the seed stores it: a1's data with Ada Lovelace's name, its passport and a hit. */
const clientA2 = (createdAt: string, documentKeys: readonly string[]): StoredClient => {
  const a1 = demoClientA1(createdAt);
  const profile = a1.individualProfile;
  if (profile === null) throw new Error('client a1 is an individual');
  const screenedAt = new Date(Date.parse(createdAt) + 60_000).toISOString();
  const status: ClientStatus = 'ONBOARDING_UNDER_REVIEW';
  return {
    ...a1,
    id: clientA2Id,
    status,
    individualProfile: {
      ...profile,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada.lovelace@example.com',
      companyName: 'Analytical Engines Ltd',
      idDocuments: [...documentKeys],
    },
    bankAccounts: a1.bankAccounts.map((account) => ({
      ...account,
      id: 'a2a2a2a2-0000-4000-8000-0000000000b1',
    })),
    blockchainWallets: a1.blockchainWallets.map((wallet) => ({
      ...wallet,
      id: 'a2a2a2a2-0000-4000-8000-0000000000e1',
    })),
    screening: {
      status: 'POSSIBLE_MATCH',
      screenedAt,
      hits: [
        {
          id: clientA2HitId,
          field: 'profile',
          name: 'Ada Lovelace',
          listName: 'Demo sanctions list',
          matchedName: 'Ada LOVELACE',
          score: 0.93,
          targetId: 'demo-person-lovelace',
          explanation: null,
          entry: {
            name: 'Ada LOVELACE',
            aliases: ['Augusta Ada King'],
            datasets: ['Demo sanctions list'],
            countries: ['gb'],
            birthDates: ['1815-12-10'],
            schema: 'Person',
          },
          resolution: null,
        },
      ],
    },
  };
};

const insertClientA2 = (
  adapters: DemoAdapters,
  createdAt: string,
  documentKeys: readonly string[],
): ResultAsync<void, StorageUnavailable> => {
  const { ports } = adapters;
  return ports.clients.findById(clientA2Id).andThen((existing) => {
    if (existing !== null) return okAsync(undefined);
    const client = clientA2(createdAt, documentKeys);
    const creation: StatusHistoryEntry = {
      from: null,
      to: client.status,
      reason: null,
      actor: principalKey(manager),
      at: createdAt,
    };
    return ports.unitOfWork
      .transaction((stores) => stores.clients.insert(client, creation))
      .orElse((error) =>
        // Another demo process sharing the database inserted it first: the outcome wanted.
        ports.clients
          .findById(clientA2Id)
          .andThen((found) => (found !== null ? okAsync(undefined) : errAsync(seedFailure(error)))),
      );
  });
};

/**
 * Stores a2's documents under the keys the download examples name, from files uploaded as any
 * upload is: each key gets its index row once, and its bytes whenever the storage lacks them.
 */
const storeDocuments = (
  kit: OnboardingKit,
  adapters: DemoAdapters,
  keys: readonly string[],
  storedAt: string,
): ResultAsync<void, StorageUnavailable> => {
  const { documentStorage, documentIndex } = adapters.ports;
  const owner = principalKey(manager);
  return documentStorage.missingPermanent(keys).andThen((missing) =>
    uploadForManagerA(kit, adapters, [...new Set(missing.map(filenameOfKey))])
      .andThen(() =>
        ResultAsync.combine(
          missing.map((key) =>
            documentStorage.statTemporary(owner, filenameOfKey(key)).andThen((file) =>
              file === null
                ? errAsync(seedFailure(new Error(`the seed's upload of ${filenameOfKey(key)} is not there`)))
                : documentStorage
                    .copyToPermanent([{ owner, filename: file.filename, key, version: file.version }])
                    .mapErr(seedFailure)
                    .map(() => ({ key, size: file.size })),
            ),
          ),
        ),
      )
      .andThen((copied) =>
        documentIndex.findIndexedKeys(keys).andThen((indexed) => {
          const sizes = new Map(copied.map(({ key, size }) => [key, size]));
          const rows = keys
            .filter((key) => !indexed.includes(key))
            .map((key) => ({
              key,
              clientId: clientA2Id,
              managerId: manager.managerId,
              filename: filenameOfKey(key),
              size: sizes.get(key) ?? sampleScan(filenameOfKey(key)).byteLength,
              storedAt,
            }));
          if (rows.length === 0) return okAsync(undefined);
          return documentIndex.insertMany(rows).orElse((error) =>
            // Another demo process sharing the database indexed them first: the outcome wanted.
            documentIndex
              .findIndexedKeys(keys)
              .andThen((now) => (now.length === keys.length ? okAsync(undefined) : errAsync(error))),
          );
        }),
      ),
  );
};

/** Seeds what the documented examples need (see the module comment). */
export const seedTryItOut = (
  kit: OnboardingKit,
  adapters: DemoAdapters,
): ResultAsync<void, StorageUnavailable> => {
  const examples = examplesOf(kit);
  const terms = examples.get('complianceMarkTermsSigned') as JsonObject | undefined;
  const signedAt = typeof terms?.signedAt === 'string' ? Date.parse(terms.signedAt) : Number.NaN;
  // The day before the documented signature; without a terms example, a day ago.
  const createdAt = new Date((Number.isNaN(signedAt) ? Date.now() : signedAt) - DAY_MS).toISOString();
  const documentKeys = [
    ...new Set([
      ...filenamesOf(examples.get('managerRequestBatchDownload')),
      ...filenamesOf(examples.get('complianceRequestClientDownloads')),
    ]),
  ];
  const uploads = [
    ...new Set(
      [
        'managerCreateIndividual',
        'managerResubmitIndividual',
        'managerCreateEntity',
        'managerResubmitEntity',
      ].flatMap((operationId) => documentNames(examples.get(operationId))),
    ),
  ];
  return (
    insertClientA2(adapters, createdAt, documentKeys)
      .andThen(() => storeDocuments(kit, adapters, documentKeys, createdAt))
      // Last: storing a2's passport may have used a file of the same name.
      .andThen(() => uploadForManagerA(kit, adapters, uploads))
  );
};

export const tryItOutIds = { clientA2Id, clientA2HitId } as const;
