/**
 * @onboarding-kit/contract-tests (private): one suite per port, which every adapter package runs on
 * itself, and the fixtures the suites and the adapters' own tests share. Listed by name.
 */
export {
  type ApiKeyStoreContractFixture,
  type ApiKeyStoreContractOptions,
  type ApiKeyStoreInspector,
  runApiKeyStoreContract,
} from './api-key-store-contract.js';
export {
  bankAccountFixture,
  blockchainWalletFixture,
  creationEntryFor,
  documentRecordFixture,
  instantAfter,
  representativeFixture,
  storedClientFixture,
  type StoredClientOverrides,
  thirdPartyBankAccountFixture,
  transitionEntry,
} from './client-fixtures.js';
export {
  type AuditLogContractFixture,
  type AuditLogContractOptions,
  runAuditLogContract,
} from './audit-log-contract.js';
export {
  type ClientRepositoryContractFixture,
  type ClientRepositoryContractOptions,
  type ClientStoreInspector,
  runClientRepositoryContract,
} from './client-repository-contract.js';
export {
  type DocumentIndexContractFixture,
  type DocumentIndexContractOptions,
  type DocumentIndexInspector,
  runDocumentIndexContract,
} from './document-index-contract.js';
export {
  awkwardFilenames,
  type DocumentStorageContractFixture,
  type DocumentStorageContractOptions,
  type DocumentStorageInspector,
  presignOne,
  runDocumentStorageContract,
} from './document-storage-contract.js';
export {
  type ErasureRetryContractFixture,
  type ErasureRetryContractOptions,
  runErasureRetryContract,
  storageKeysOf,
} from './erasure-retry-contract.js';
export {
  type EventLogContractFixture,
  type EventLogContractOptions,
  runEventLogContract,
} from './event-log-contract.js';
export {
  type IdempotencyRecordSnapshot,
  type IdempotencyStoreContractFixture,
  type IdempotencyStoreContractOptions,
  type IdempotencyStoreInspector,
  runIdempotencyStoreContract,
} from './idempotency-store-contract.js';
export {
  type PresetFeeInspector,
  type PresetFeeRepositoryContractFixture,
  type PresetFeeRepositoryContractOptions,
  runPresetFeeRepositoryContract,
} from './preset-fee-repository-contract.js';
export { expectErr, expectOk } from './result-assertions.js';
export {
  runScreeningFairnessContract,
  type ScreeningFairnessContractFixture,
  type ScreeningFairnessContractOptions,
} from './screening-fairness-contract.js';
export {
  createMonitoredList,
  type MonitoredList,
  runScreeningMonitoringContract,
  type ScreeningMonitoringContractFixture,
  type ScreeningMonitoringContractOptions,
} from './screening-monitoring-contract.js';
export {
  runScreenedNameIndexContract,
  type ScreenedNameIndexContractFixture,
  type ScreenedNameIndexContractOptions,
} from './screened-name-index-contract.js';
export { runReviewQueueContract } from './review-queue-contract.js';
export { openFixture, type Teardown } from './test-fixture.js';
export {
  runWebhookDeliveryStoreContract,
  type WebhookDeliveryStoreContractOptions,
} from './webhook-delivery-store-contract.js';
export {
  insertEndpoint,
  runWebhookEndpointStoreContract,
  webhookDeliveryFixture,
  webhookEndpointFixture,
  type WebhookStoresContractFixture,
  type WebhookStoresContractOptions,
} from './webhook-endpoint-store-contract.js';
export {
  runWebhookFairnessContract,
  type WebhookFairnessContractFixture,
  type WebhookFairnessContractOptions,
} from './webhook-fairness-contract.js';
export {
  type QueuedWebhookJob,
  runWebhookJobQueueContract,
  type WebhookJobQueueContractFixture,
  type WebhookJobQueueContractOptions,
} from './webhook-job-queue-contract.js';
export {
  runScreeningJobQueueContract,
  type ScreeningJobQueueContractFixture,
  type ScreeningJobQueueContractOptions,
} from './screening-job-queue-contract.js';
