import {
  presignOne,
  runApiKeyStoreContract,
  runAuditLogContract,
  runClientRepositoryContract,
  runDocumentIndexContract,
  runDocumentStorageContract,
  runEventLogContract,
  runIdempotencyStoreContract,
  runPresetFeeRepositoryContract,
  runReviewQueueContract,
  runScreenedNameIndexContract,
  runScreeningJobQueueContract,
  runWebhookDeliveryStoreContract,
  runWebhookEndpointStoreContract,
  runWebhookJobQueueContract,
} from '@onboarding-kit/contract-tests';
import { auditEntryHash, portableTextHashing } from '@onboarding-kit/core/adapter';
import { expect } from 'vitest';
import { createMemoryAdapters } from '../src/index.js';

// Every test gets fresh adapters; the inspect hooks read the adapters' internal maps directly.
const publicBaseUrl = 'http://storage.test/storage';

const tokenAfter = (url: string, route: 'uploads' | 'downloads'): string => {
  const prefix = `${publicBaseUrl}/${route}/`;
  expect(url.startsWith(prefix)).toBe(true);
  return url.slice(prefix.length);
};

runClientRepositoryContract({
  name: 'memory',
  setup: async () => {
    const adapters = createMemoryAdapters();
    return {
      clients: adapters.clients,
      unitOfWork: adapters.unitOfWork,
      documents: adapters.documentIndex,
      idempotency: adapters.idempotency,
      inspect: {
        readClient: async (clientId) => adapters.testing.readClient(clientId),
        readStatusHistory: async (clientId) => adapters.testing.readStatusHistory(clientId),
        readDocumentRecord: async (key) => adapters.testing.readDocumentRecord(key),
      },
    };
  },
});

runReviewQueueContract({
  name: 'memory',
  setup: async () => {
    const adapters = createMemoryAdapters();
    return {
      clients: adapters.clients,
      unitOfWork: adapters.unitOfWork,
      documents: adapters.documentIndex,
      idempotency: adapters.idempotency,
      inspect: {
        readClient: async (clientId) => adapters.testing.readClient(clientId),
        readStatusHistory: async (clientId) => adapters.testing.readStatusHistory(clientId),
        readDocumentRecord: async (key) => adapters.testing.readDocumentRecord(key),
      },
    };
  },
});

runDocumentIndexContract({
  name: 'memory',
  setup: async () => {
    const adapters = createMemoryAdapters();
    return {
      documents: adapters.documentIndex,
      inspect: {
        readDocumentRecord: async (key) => adapters.testing.readDocumentRecord(key),
        readUploadClaim: async (upload) => adapters.testing.readUploadClaim(upload),
      },
    };
  },
});

runDocumentStorageContract({
  name: 'memory',
  setup: async (bound) => {
    // The listing test keeps 1,200 files for one owner: above the default per-owner quota.
    const adapters = createMemoryAdapters({ publicBaseUrl, maxTemporaryFilesPerOwner: 2_000, ...bound });
    const { documentStorage, signedLinks, clock } = adapters;
    return {
      storage: documentStorage,
      putTemporaryFile: async (owner, filename, bytes) => {
        const upload = await presignOne(
          documentStorage,
          owner,
          filename,
          new Date(clock.now().getTime() + 900_000),
        );
        if (upload.isErr()) expect.fail(JSON.stringify(upload.error));
        const accepted = await signedLinks.acceptUpload(tokenAfter(upload.value.url, 'uploads'), bytes);
        if (accepted.isErr()) expect.fail(JSON.stringify(accepted.error));
      },
      download: async (url) => {
        const opened = await signedLinks.openDownload(tokenAfter(url, 'downloads'));
        if (opened.isErr()) expect.fail(JSON.stringify(opened.error));
        return opened.value;
      },
      inspect: {
        readPermanent: async (key) => adapters.testing.readDocument(key),
        readTemporary: async (owner, filename) => adapters.testing.readTemporaryFile(owner, filename),
      },
    };
  },
});

runPresetFeeRepositoryContract({
  name: 'memory',
  setup: async () => {
    const adapters = createMemoryAdapters();
    return {
      presetFees: adapters.presetFees,
      inspect: { readPresetFee: async (presetFeeId) => adapters.testing.readPresetFee(presetFeeId) },
    };
  },
});

runIdempotencyStoreContract({
  name: 'memory',
  setup: async () => {
    const adapters = createMemoryAdapters();
    return {
      idempotency: adapters.idempotency,
      inspect: {
        readRecord: async (scope, key) => {
          const record = adapters.testing.readIdempotencyRecord(scope, key);
          return record === null ? null : { fingerprint: record.fingerprint, outcome: record.outcome };
        },
      },
    };
  },
});

runApiKeyStoreContract({
  name: 'memory',
  setup: async () => {
    const adapters = createMemoryAdapters();
    return {
      apiKeys: adapters.apiKeys,
      inspect: { dumpStoredText: async () => JSON.stringify(adapters.testing.listApiKeyDigests()) },
    };
  },
});

runEventLogContract({
  name: 'memory',
  setup: async () => {
    const adapters = createMemoryAdapters();
    return { events: adapters.events, unitOfWork: adapters.unitOfWork, clients: adapters.clients };
  },
});

runAuditLogContract({
  name: 'memory',
  setup: async () => {
    const adapters = createMemoryAdapters();
    return {
      audit: adapters.audit,
      unitOfWork: adapters.unitOfWork,
      inspect: {
        readEntries: async (clientId) => adapters.testing.readAuditEntries(clientId),
        forgeEntry: async (entryId, forged) => adapters.testing.forgeAuditEntry(entryId, forged),
        // The memory log takes redaction's word for it: nothing to prepare.
        markClientRedacted: async () => {},
        rechainAsVersion1: async (clientId) => {
          let previousHash: string | null = null;
          for (const { entry, link } of (
            await adapters.audit.listForClient({ clientId, limit: 100 })
          )._unsafeUnwrap()) {
            const version1 = { ...link, previousHash, documentsDigest: null };
            const hash = auditEntryHash(portableTextHashing, version1, entry);
            await adapters.testing.forgeAuditEntry(entry.id, {}, { ...version1, hash });
            previousHash = hash;
          }
        },
      },
    };
  },
});

runScreenedNameIndexContract({
  name: 'memory',
  setup: async () => {
    const adapters = createMemoryAdapters();
    return {
      screenedNames: adapters.screenedNames,
      unitOfWork: adapters.unitOfWork,
      // The memory index refers to no client row.
      prepareClient: async () => undefined,
      inspect: {
        readNames: async (clientId) =>
          adapters.testing.readScreenedNames(clientId).sort((a, b) => (a.field < b.field ? -1 : 1)),
        readListChangeJobs: async (version) =>
          adapters.testing
            .listScreeningJobs()
            .flatMap(({ job }) =>
              job.type === 'monitor-list-change' && job.version === version ? [job] : [],
            )
            .sort((a, b) => a.batch - b.batch),
      },
    };
  },
});

const webhookStores = async () => {
  const adapters = createMemoryAdapters();
  return {
    endpoints: adapters.webhookEndpoints,
    deliveries: adapters.webhookDeliveries,
    unitOfWork: adapters.unitOfWork,
    inspect: { listJobs: async () => adapters.testing.listWebhookJobs() },
  };
};

runWebhookEndpointStoreContract({ name: 'memory', setup: webhookStores });
runWebhookDeliveryStoreContract({ name: 'memory', setup: webhookStores });
runWebhookJobQueueContract({ name: 'memory', setup: webhookStores });
runScreeningJobQueueContract({
  name: 'memory',
  setup: async () => {
    const adapters = createMemoryAdapters();
    return {
      unitOfWork: adapters.unitOfWork,
      inspect: {
        listQueuedClientIds: async () =>
          adapters.testing
            .listScreeningJobs()
            .flatMap(({ clientId }) => (clientId === undefined ? [] : [clientId])),
      },
    };
  },
});
