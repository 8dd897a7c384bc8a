import {
  runApiKeyStoreContract,
  runClientRepositoryContract,
  runDocumentIndexContract,
  runEventLogContract,
  runIdempotencyStoreContract,
  runPresetFeeRepositoryContract,
} from '@onboarding-kit/contract-tests';
import { afterAll, beforeAll } from 'vitest';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';
import { rawSqlInspector } from './raw-sql-inspector.js';

// One migrated schema for the file: every suite uses random ids and scopes, so tests share it.
let database: MigratedDatabase;
let inspect: ReturnType<typeof rawSqlInspector>;
beforeAll(async () => {
  database = await openMigratedDatabase();
  inspect = rawSqlInspector(database.pool, database.tables);
});
afterAll(() => database.close());

runClientRepositoryContract({
  name: 'postgres',
  setup: async () => ({
    clients: database.adapters.clients,
    unitOfWork: database.adapters.unitOfWork,
    documents: database.adapters.documentIndex,
    idempotency: database.adapters.idempotency,
    inspect: {
      readClient: inspect.readClient,
      readStatusHistory: inspect.readStatusHistory,
      readDocumentRecord: inspect.readDocumentRecord,
    },
  }),
});

runDocumentIndexContract({
  name: 'postgres',
  setup: async () => ({
    documents: database.adapters.documentIndex,
    inspect: { readDocumentRecord: inspect.readDocumentRecord },
    // documents.client_id references clients(id).
    prepareClient: ({ clientId, managerId }) => inspect.insertBareClient(clientId, managerId),
  }),
});

runIdempotencyStoreContract({
  name: 'postgres',
  setup: async () => ({
    idempotency: database.adapters.idempotency,
    inspect: { readRecord: inspect.readIdempotencyRecord },
  }),
});

runPresetFeeRepositoryContract({
  name: 'postgres',
  setup: async () => ({
    presetFees: database.adapters.presetFees,
    inspect: { readPresetFee: inspect.readPresetFee },
  }),
});

runApiKeyStoreContract({
  name: 'postgres',
  setup: async () => ({
    apiKeys: database.adapters.apiKeys,
    inspect: { dumpStoredText: inspect.dumpApiKeys },
  }),
});

runEventLogContract({
  name: 'postgres',
  setup: async () => ({ events: database.adapters.events, unitOfWork: database.adapters.unitOfWork }),
});
