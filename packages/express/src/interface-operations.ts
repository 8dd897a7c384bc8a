import type { IndividualOnboardingPayload, Principal } from '@onboarding-kit/core';
import {
  assignNextBodySchema,
  assignNextResponseSchema,
  auditListQuerySchema,
  auditListResponseSchema,
  auditVerificationQuerySchema,
  auditVerificationSchema,
  batchDownloadRequestSchema,
  batchDownloadResponseSchema,
  batchUploadRequestSchema,
  batchUploadResponseSchema,
  clientEventListQuerySchema,
  clientEventListResponseSchema,
  clientListQuerySchema,
  clientListResponseSchema,
  clientSchema,
  createdWebhookEndpointSchema,
  defaultOnboardingPayloadSchemas,
  presetFeeListResponseSchema,
  presetFeeSchema,
  requestResubmissionBodySchema,
  resolveScreeningHitBodySchema,
  reviewQueueQuerySchema,
  reviewQueueResponseSchema,
  SIGNED_AT_CLOCK_SKEW_MS,
  statusHistoryResponseSchema,
  temporaryFilesResponseSchema,
  termsSignedBodySchema,
  webhookDeliveryListQuerySchema,
  webhookDeliveryListResponseSchema,
  webhookDeliverySchema,
  webhookEndpointCreateBodySchema,
  webhookEndpointListResponseSchema,
  webhookEndpointSchema,
  webhookSecretRotationBodySchema,
  webhookSecretRotationResponseSchema,
} from '@onboarding-kit/core/schemas';
import type { DocumentedKitOptions, OperationSpec } from './operation.js';
import { bytesLabel, durationLabel } from './quantity-labels.js';

/** The documents a payload names must be in temporary storage, and of a size the kit accepts. */
const promotedDocuments = (options: DocumentedKitOptions): string =>
  'Created in ONBOARDING_UNDER_REVIEW; the named uploads (each 1 byte to ' +
  `${bytesLabel(options.maxDocumentBytes)}) move to permanent storage.`;

const clientResource = { component: 'Client', schema: clientSchema } as const;

/** The file the resubmission example names as the new identity document. */
const RESUBMITTED_ID_DOCUMENT_EXAMPLE = 'passport-renewed.pdf';

/**
 * The create example with an identity document of its own: an upload is used by one command only
 * (decisions §4), so the create's `passport.pdf` is gone once the create's example ran.
 */
const resubmissionExample = (created: unknown): unknown => {
  const payload = created as IndividualOnboardingPayload;
  return { ...payload, profile: { ...payload.profile, idDocuments: [RESUBMITTED_ID_DOCUMENT_EXAMPLE] } };
};

/**
 * Every route of the three interfaces (spec section 4, decisions §1–§6), declared once, in mounting
 * order: which interfaces serve it, its method and path, whether it takes an Idempotency-Key, its
 * schemas under their OpenAPI component names. The routers and the OpenAPI document read only this.
 */
export const interfaceOperations = {
  createIndividual: {
    interfaces: ['manager'],
    method: 'post',
    path: '/clients/individuals',
    idempotent: true,
    summary: 'Create an individual client',
    description: promotedDocuments,
    requestBody: {
      component: 'IndividualOnboardingPayload',
      schema: defaultOnboardingPayloadSchemas.individualPayload,
    },
    success: { status: 201, description: 'The created client', ...clientResource },
    refusals: [],
  },
  resubmitIndividual: {
    interfaces: ['manager'],
    method: 'put',
    path: '/clients/individuals/:clientId/onboarding',
    idempotent: true,
    summary: 'Resubmit the onboarding of an individual client',
    description: 'From RESUBMISSION_REQUIRED only; replaces all earlier onboarding information.',
    requestBody: {
      component: 'IndividualOnboardingPayload',
      schema: defaultOnboardingPayloadSchemas.individualPayload,
      example: resubmissionExample,
    },
    success: { status: 201, description: 'The client, back in ONBOARDING_UNDER_REVIEW', ...clientResource },
    refusals: ['CLIENT_NOT_FOUND', 'INVALID_STATUS'],
  },
  createEntity: {
    interfaces: ['manager'],
    method: 'post',
    path: '/clients/entities',
    idempotent: true,
    summary: 'Create an entity client',
    description: promotedDocuments,
    requestBody: {
      component: 'EntityOnboardingPayload',
      schema: defaultOnboardingPayloadSchemas.entityPayload,
    },
    success: { status: 201, description: 'The created client', ...clientResource },
    refusals: [],
  },
  resubmitEntity: {
    interfaces: ['manager'],
    method: 'put',
    path: '/clients/entities/:clientId/onboarding',
    idempotent: true,
    summary: 'Resubmit the onboarding of an entity client',
    description: 'From RESUBMISSION_REQUIRED only; replaces all earlier onboarding information.',
    requestBody: {
      component: 'EntityOnboardingPayload',
      schema: defaultOnboardingPayloadSchemas.entityPayload,
    },
    success: { status: 201, description: 'The client, back in ONBOARDING_UNDER_REVIEW', ...clientResource },
    refusals: ['CLIENT_NOT_FOUND', 'INVALID_STATUS'],
  },
  listClients: {
    interfaces: ['manager'],
    method: 'get',
    path: '/clients',
    idempotent: false,
    summary: "List the manager's clients",
    description: 'Newest first, `limit` per page; pass `nextCursor` back as `cursor` for the next page.',
    query: clientListQuerySchema,
    success: {
      status: 200,
      description: 'One page of clients',
      component: 'ClientList',
      schema: clientListResponseSchema,
    },
    refusals: ['VALIDATION_FAILED'],
  },
  listEvents: {
    interfaces: ['manager'],
    method: 'get',
    path: '/events',
    idempotent: false,
    summary: "The manager's client events, oldest first",
    description:
      'One event per status change (`client.created`, `client.resubmitted`, `client.resubmission_requested`, ' +
      '`client.approved`, `client.terms_signed`, `client.deleted`) and per promotion of documents ' +
      '(`documents.promoted`), written with the change itself: a committed change always has its event, a ' +
      'refused or failed one none. Pass `nextCursor` back as `after` to read what follows (at the end it is ' +
      'the same cursor again, to poll from). At most `limit` per page; filter by `type` or `clientId`.',
    query: clientEventListQuerySchema,
    success: {
      status: 200,
      description: 'One page of events',
      component: 'ClientEventList',
      schema: clientEventListResponseSchema,
    },
    refusals: ['VALIDATION_FAILED'],
  },
  createWebhookEndpoint: {
    interfaces: ['manager'],
    method: 'post',
    path: '/webhook-endpoints',
    idempotent: true,
    summary: 'Register a webhook endpoint',
    description: (options) =>
      "The manager's events are POSTed to `url`, signed per the Standard Webhooks spec (`webhook-id`, " +
      '`webhook-timestamp`, `webhook-signature`) with the `secret` of the answer, shown only here. ' +
      (options.webhookAllowPrivateNetworks
        ? '`http` or `https`; this service also accepts loopback, private and link-local addresses. '
        : '`https` to a public host only (loopback, private and link-local addresses are refused). ') +
      `A manager registers at most ${options.maxWebhookEndpointsPerManager} endpoints. ` +
      '`eventTypes` limits what is delivered (default: every type). Delivery is at least once, retried with ' +
      `backoff for ${durationLabel(options.webhookRetryWindowMs)}: deduplicate on \`webhook-id\`.`,
    requestBody: { component: 'WebhookEndpointCreate', schema: webhookEndpointCreateBodySchema },
    success: {
      status: 201,
      description: 'The endpoint, with its signing secret (shown once)',
      component: 'CreatedWebhookEndpoint',
      schema: createdWebhookEndpointSchema,
    },
    refusals: ['WEBHOOK_ENDPOINT_LIMIT_REACHED'],
  },
  listWebhookEndpoints: {
    interfaces: ['manager'],
    method: 'get',
    path: '/webhook-endpoints',
    idempotent: false,
    summary: "The manager's webhook endpoints",
    success: {
      status: 200,
      description: 'The endpoints, oldest first',
      component: 'WebhookEndpointList',
      schema: webhookEndpointListResponseSchema,
    },
    refusals: [],
  },
  getWebhookEndpoint: {
    interfaces: ['manager'],
    method: 'get',
    path: '/webhook-endpoints/:endpointId',
    idempotent: false,
    summary: 'Get a webhook endpoint',
    success: {
      status: 200,
      description: 'The endpoint (never its secret)',
      component: 'WebhookEndpoint',
      schema: webhookEndpointSchema,
    },
    refusals: ['WEBHOOK_ENDPOINT_NOT_FOUND'],
  },
  deleteWebhookEndpoint: {
    interfaces: ['manager'],
    method: 'delete',
    path: '/webhook-endpoints/:endpointId',
    idempotent: true,
    summary: 'Remove a webhook endpoint',
    description: 'Nothing more is delivered to it; its deliveries are removed with it.',
    success: {
      status: 200,
      description: 'The endpoint as it was',
      component: 'WebhookEndpoint',
      schema: webhookEndpointSchema,
    },
    refusals: ['WEBHOOK_ENDPOINT_NOT_FOUND'],
  },
  rotateWebhookSecret: {
    interfaces: ['manager'],
    method: 'post',
    path: '/webhook-endpoints/:endpointId/rotate-secret',
    idempotent: true,
    summary: "Rotate a webhook endpoint's signing secret",
    description: (options) =>
      'Answers the new secret (shown only here). The previous one keeps signing next to it for ' +
      `\`overlapSeconds\` (default ${durationLabel(options.webhookSecretOverlapMs)}, 0 to stop at once): ` +
      'deliveries then carry two signatures.',
    requestBody: { component: 'WebhookSecretRotationRequest', schema: webhookSecretRotationBodySchema },
    success: {
      status: 200,
      description: 'The new secret',
      component: 'WebhookSecretRotation',
      schema: webhookSecretRotationResponseSchema,
    },
    refusals: ['WEBHOOK_ENDPOINT_NOT_FOUND'],
  },
  enableWebhookEndpoint: {
    interfaces: ['manager'],
    method: 'post',
    path: '/webhook-endpoints/:endpointId/enable',
    idempotent: true,
    summary: 'Enable a disabled webhook endpoint again',
    description:
      'The kit disables an endpoint that answers 410 Gone (`disabledReason: gone`) or has failed every ' +
      'attempt for 5 days (`failing`): it then gets no new deliveries, and its due ones fail with ' +
      '`endpoint disabled`. Enabling it delivers new events again and starts its failing streak afresh; ' +
      'redeliver what failed meanwhile. Enabling an enabled endpoint changes nothing else.',
    success: {
      status: 200,
      description: 'The endpoint, enabled',
      component: 'WebhookEndpoint',
      schema: webhookEndpointSchema,
    },
    refusals: ['WEBHOOK_ENDPOINT_NOT_FOUND'],
  },
  listWebhookDeliveries: {
    interfaces: ['manager'],
    method: 'get',
    path: '/webhook-endpoints/:endpointId/deliveries',
    idempotent: false,
    summary: "An endpoint's deliveries, newest first",
    description:
      'Each event sent to the endpoint: `pending` (retrying; `nextAttemptAt`), `succeeded`, or `failed` once ' +
      'its retry window ended. Filter by `status`; pass `nextCursor` back as `cursor` for older ones.',
    query: webhookDeliveryListQuerySchema,
    success: {
      status: 200,
      description: 'One page of deliveries',
      component: 'WebhookDeliveryList',
      schema: webhookDeliveryListResponseSchema,
    },
    refusals: ['VALIDATION_FAILED', 'WEBHOOK_ENDPOINT_NOT_FOUND'],
  },
  redeliverWebhook: {
    interfaces: ['manager'],
    method: 'post',
    path: '/webhook-endpoints/:endpointId/deliveries/:deliveryId/redeliver',
    idempotent: true,
    summary: 'Deliver an event to an endpoint again',
    description: 'Attempted again now, whatever its status, with a fresh retry window.',
    success: {
      status: 200,
      description: 'The delivery, pending again',
      component: 'WebhookDelivery',
      schema: webhookDeliverySchema,
    },
    refusals: ['WEBHOOK_ENDPOINT_NOT_FOUND', 'WEBHOOK_DELIVERY_NOT_FOUND'],
  },
  getClient: {
    interfaces: ['manager', 'compliance'],
    method: 'get',
    path: '/clients/:clientId',
    idempotent: false,
    clientEtag: true,
    summary: 'Get a client',
    description:
      "A manager gets its own clients; compliance gets any manager's. `requirements` lists what stands in " +
      'the way of the next review step (an approval, the terms), computed by the kit.',
    success: { status: 200, description: 'The client', ...clientResource },
    refusals: ['CLIENT_NOT_FOUND'],
  },
  deleteClient: {
    interfaces: ['manager', 'compliance'],
    method: 'delete',
    path: '/clients/:clientId',
    idempotent: true,
    ifMatch: true,
    summary: 'Delete a client (soft delete; its documents are kept)',
    success: { status: 200, description: 'The client, DELETED with deletedAt set', ...clientResource },
    refusals: ['CLIENT_NOT_FOUND', 'INVALID_STATUS'],
  },
  statusHistory: {
    interfaces: ['manager', 'compliance'],
    method: 'get',
    path: '/clients/:clientId/status-history',
    idempotent: false,
    summary: "A client's status history, oldest first",
    success: {
      status: 200,
      description: 'Every transition, from the creation on',
      component: 'StatusHistory',
      schema: statusHistoryResponseSchema,
    },
    refusals: ['CLIENT_NOT_FOUND'],
  },
  auditTrail: {
    interfaces: ['manager', 'compliance'],
    method: 'get',
    path: '/clients/:clientId/audit',
    idempotent: false,
    summary: "A client's audit trail, oldest first",
    description:
      'One entry per change of the client (`create`, `resubmit`, `approve`, `request-resubmission`, ' +
      '`terms-signed`, `delete`, `screening-resolution`, `assign`, `release`) and per request of download links for its documents ' +
      '(`download-links-issued`, the keys in `documents`), written with the change itself. `actor` is who made ' +
      'it, `requestId` the `X-Request-Id` of its request, `changes` the fields that differ (JSON paths). ' +
      'Entries are never changed. `limit` per page; pass `nextCursor` back as `cursor` for the next page.',
    query: auditListQuerySchema,
    success: {
      status: 200,
      description: 'One page of audit entries',
      component: 'AuditTrail',
      schema: auditListResponseSchema,
    },
    refusals: ['VALIDATION_FAILED', 'CLIENT_NOT_FOUND'],
  },
  verifyAuditTrail: {
    interfaces: ['compliance'],
    method: 'get',
    path: '/clients/:clientId/audit/verification',
    idempotent: false,
    summary: "Check a client's audit trail for tampering",
    description:
      "Each entry of a client's trail carries a hash chained to the entry before it, computed by the " +
      'store as the entry is written, and, when the host gave the kit sealing keys, a seal (an HMAC of the ' +
      'hash under a key the database does not hold). This recomputes the whole chain, oldest entry first, ' +
      'and names the first entry whose link does not hold: CHAIN_BROKEN (an entry removed, inserted or ' +
      'moved), ENTRY_ALTERED (a field rewritten), CHANGES_ALTERED (changed values, or redacted values on a ' +
      'client that was not redacted), BACKDATED (dated more than five minutes before the entry before it), ' +
      'UNSEALED, UNKNOWN_SEAL_KEY, SEAL_INVALID (an entry not sealed by the kit: appended with database ' +
      "access only). Redaction keeps the chain and the seals verifiable. `head` is the trail's last " +
      'sequence and hash: keep it outside the database and pass it back as `anchorSequence` and ' +
      '`anchorHash` to detect a cut tail (TAIL_MISSING) or a rewrite at or before it (ANCHOR_MISMATCH).',
    query: auditVerificationQuerySchema,
    success: {
      status: 200,
      description: 'Whether every link holds, and the first that does not',
      component: 'AuditVerification',
      schema: auditVerificationSchema,
    },
    refusals: ['VALIDATION_FAILED', 'CLIENT_NOT_FOUND'],
  },
  requestBatchUpload: {
    interfaces: ['manager', 'client'],
    method: 'post',
    path: '/uploads/request-batch-upload',
    idempotent: true,
    summary: 'Request presigned upload addresses',
    description: (options) =>
      `One upload address per filename, valid ${durationLabel(options.uploadUrlTtlMs)} (a PUT of the file, ` +
      'or a POST of a form where the storage bounds the size itself). The uploaded files land in ' +
      `the caller's temporary storage for ${durationLabel(options.temporaryFileTtlMs)}; a file over ` +
      `${bytesLabel(options.maxDocumentBytes)} or of 0 bytes is refused where a payload names it.`,
    requestBody: { component: 'BatchUploadRequest', schema: batchUploadRequestSchema },
    success: {
      status: 200,
      description: 'One upload address per filename',
      component: 'BatchUploadResponse',
      schema: batchUploadResponseSchema,
    },
    refusals: [],
  },
  listUploads: {
    interfaces: ['manager', 'client'],
    method: 'get',
    path: '/uploads',
    idempotent: false,
    summary: "List the caller's temporary files",
    success: {
      status: 200,
      description: 'The files in temporary storage',
      component: 'TemporaryFiles',
      schema: temporaryFilesResponseSchema,
    },
    refusals: [],
  },
  requestBatchDownload: {
    interfaces: ['manager'],
    method: 'post',
    path: '/documents/request-batch-download',
    idempotent: true,
    summary: 'Request presigned download addresses',
    description: (options) =>
      "Document keys (`<uuid>_<filename>`) of the manager's clients; each address, valid " +
      `${durationLabel(options.downloadUrlTtlMs)}, downloads the document as an attachment named with ` +
      'its original filename.',
    requestBody: { component: 'BatchDownloadRequest', schema: batchDownloadRequestSchema },
    success: {
      status: 200,
      description: 'One download address per key',
      component: 'BatchDownloadResponse',
      schema: batchDownloadResponseSchema,
    },
    refusals: ['DOCUMENT_NOT_FOUND'],
  },
  listPresetFees: {
    interfaces: ['manager'],
    method: 'get',
    path: '/preset-fees',
    idempotent: false,
    summary: "List the manager's preset fees",
    description: 'Newest `createdAt` first; items name the direction `feeDirection`.',
    success: {
      status: 200,
      description: 'The preset fees',
      component: 'PresetFeeList',
      schema: presetFeeListResponseSchema,
    },
    refusals: [],
  },
  getPresetFee: {
    interfaces: ['manager'],
    method: 'get',
    path: '/preset-fees/:presetFeeId',
    idempotent: false,
    summary: 'Get a preset fee',
    description: 'The single item names the direction `transactionType` (the spec keeps this quirk).',
    success: { status: 200, description: 'The preset fee', component: 'PresetFee', schema: presetFeeSchema },
    refusals: ['PRESET_FEE_NOT_FOUND'],
  },
  approve: {
    interfaces: ['compliance'],
    method: 'post',
    path: '/clients/:clientId/approve',
    idempotent: true,
    ifMatch: true,
    summary: "Approve a client's onboarding",
    description:
      'ONBOARDING_UNDER_REVIEW → WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE. Takes no body. When the kit ' +
      'screens clients, refused (SCREENING_UNRESOLVED) while the screening is PENDING or ERROR, or has a ' +
      'hit that is not DISMISSED.',
    success: { status: 200, description: 'The client', ...clientResource },
    refusals: ['CLIENT_NOT_FOUND', 'INVALID_STATUS', 'SCREENING_UNRESOLVED'],
  },
  requestResubmission: {
    interfaces: ['compliance'],
    method: 'post',
    path: '/clients/:clientId/request-resubmission',
    idempotent: true,
    ifMatch: true,
    summary: 'Ask the manager to resubmit the onboarding',
    description:
      'ONBOARDING_UNDER_REVIEW → RESUBMISSION_REQUIRED; the reason is shown as onboardingResubmissionReason ' +
      'and the requirements (each a field of the onboarding payload, a code and a message) as ' +
      'resubmissionRequirements, until the manager resubmits. A `field` that names no field of the ' +
      "client's payload type (individual or entity) is a 400 at `requirements[i].field`.",
    requestBody: { component: 'RequestResubmission', schema: requestResubmissionBodySchema },
    success: { status: 200, description: 'The client', ...clientResource },
    refusals: ['CLIENT_NOT_FOUND', 'INVALID_STATUS'],
  },
  markTermsSigned: {
    interfaces: ['compliance'],
    method: 'post',
    path: '/clients/:clientId/terms-signed',
    idempotent: true,
    ifMatch: true,
    summary: 'Record that the client signed the terms and conditions',
    description:
      'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE → VERIFIED. The body, optional, is the evidence of ' +
      'the signature, answered as termsAcceptance; `signedAt` may be at most ' +
      `${durationLabel(SIGNED_AT_CLOCK_SKEW_MS)} ahead of the kit's clock.`,
    requestBody: { component: 'TermsSigned', schema: termsSignedBodySchema, optional: true },
    success: { status: 200, description: 'The client', ...clientResource },
    refusals: ['CLIENT_NOT_FOUND', 'INVALID_STATUS'],
  },
  redactClient: {
    interfaces: ['compliance'],
    method: 'post',
    path: '/clients/:clientId/redact',
    idempotent: true,
    ifMatch: true,
    summary: "Erase a deleted client's personal data",
    description:
      'DELETED only (another status is INVALID_STATUS). Deletes every document of the client from ' +
      'storage and removes its personal data from the client, its status history, its events, its ' +
      'audit changes and the stored idempotent answers; ids, statuses, timestamps, actions and actors ' +
      'stay. Answers the redacted client (redactedAt set); a client already redacted answers the same. ' +
      'Takes no body.',
    success: { status: 200, description: 'The redacted client', ...clientResource },
    refusals: ['CLIENT_NOT_FOUND', 'INVALID_STATUS'],
  },
  resolveScreeningHit: {
    interfaces: ['compliance'],
    method: 'post',
    path: '/clients/:clientId/screening-hits/:hitId/resolve',
    idempotent: true,
    ifMatch: true,
    summary: 'Confirm or dismiss a screening hit',
    description:
      "Records compliance's decision on one hit of the client's screening (CONFIRMED: the client is the " +
      'listed person or company; DISMISSED: it is not), with its reason, in any status; a later ' +
      'decision replaces it. The client can be approved once every hit is DISMISSED. Audited as ' +
      '`screening-resolution`.',
    requestBody: { component: 'ResolveScreeningHit', schema: resolveScreeningHitBodySchema },
    success: { status: 200, description: 'The client', ...clientResource },
    refusals: ['CLIENT_NOT_FOUND', 'SCREENING_HIT_NOT_FOUND'],
  },
  reviewQueue: {
    interfaces: ['compliance'],
    method: 'get',
    path: '/review-queue',
    idempotent: false,
    summary: 'The clients waiting for a reviewer',
    description:
      "Every manager's clients in ONBOARDING_UNDER_REVIEW, then in WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE. " +
      "Within a status the managers take turns: each manager's first waiting client (oldest `createdAt` first " +
      "among them), then each one's second, and so on, so one manager's many clients never hold another's back. " +
      'A waiting client keeps its place, so pages neither repeat nor skip it while others are decided. ' +
      'Filters: `status`, `clientType`, `screening` (a screening status, or NONE), `assignee` (`me`, ' +
      '`unassigned`); `counts` gives each status under the other filters. Pass `nextCursor` back as `cursor` ' +
      'for the next page.',
    query: reviewQueueQuerySchema,
    success: {
      status: 200,
      description: 'One page of the queue',
      component: 'ReviewQueue',
      schema: reviewQueueResponseSchema,
    },
    refusals: ['VALIDATION_FAILED'],
  },
  assignNext: {
    interfaces: ['compliance'],
    method: 'post',
    path: '/review-queue/assign-next',
    idempotent: true,
    summary: 'Assign the caller the next unassigned client',
    description:
      'The first unassigned client in queue order (under the optional filters), assigned to the caller ' +
      'and audited as `assign`; `client` is null when none waits. Two callers at once get two different ' +
      'clients.',
    requestBody: { component: 'AssignNext', schema: assignNextBodySchema, optional: true },
    success: {
      status: 200,
      description: 'The client now assigned to the caller, or null',
      component: 'AssignNextResult',
      schema: assignNextResponseSchema,
    },
    refusals: [],
  },
  assignClient: {
    interfaces: ['compliance'],
    method: 'post',
    path: '/clients/:clientId/assign',
    idempotent: true,
    ifMatch: true,
    summary: 'Assign a waiting client to the caller',
    description:
      'In ONBOARDING_UNDER_REVIEW or WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE (another status is ' +
      'INVALID_STATUS). Takes the client over from another reviewer; audited as `assign` (before and after). ' +
      "A client already the caller's answers as it is. Takes no body.",
    success: { status: 200, description: 'The client', ...clientResource },
    refusals: ['CLIENT_NOT_FOUND', 'INVALID_STATUS'],
  },
  releaseClient: {
    interfaces: ['compliance'],
    method: 'post',
    path: '/clients/:clientId/release',
    idempotent: true,
    ifMatch: true,
    summary: 'Leave a client unassigned',
    description:
      'Whoever held it; audited as `release`. An unassigned client answers as it is. Takes no body.',
    success: { status: 200, description: 'The client', ...clientResource },
    refusals: ['CLIENT_NOT_FOUND'],
  },
  requestClientDownloads: {
    interfaces: ['compliance'],
    method: 'post',
    path: '/clients/:clientId/documents/request-batch-download',
    idempotent: true,
    summary: "Request presigned download addresses for a client's documents",
    description: (options) =>
      "Document keys of the client (any manager's); each address, valid " +
      `${durationLabel(options.downloadUrlTtlMs)}, downloads the document as an attachment named with its ` +
      'original filename. Audited as `download-links-issued` before the addresses are answered.',
    requestBody: { component: 'BatchDownloadRequest', schema: batchDownloadRequestSchema },
    success: {
      status: 200,
      description: 'One download address per key',
      component: 'BatchDownloadResponse',
      schema: batchDownloadResponseSchema,
    },
    refusals: ['CLIENT_NOT_FOUND', 'DOCUMENT_NOT_FOUND'],
  },
} as const satisfies Record<string, OperationSpec>;

type InterfaceOperations = typeof interfaceOperations;

/** The operations one interface serves, by id. */
export type OperationsOf<K extends Principal['kind']> = {
  readonly [Id in keyof InterfaceOperations as K extends InterfaceOperations[Id]['interfaces'][number]
    ? Id
    : never]: InterfaceOperations[Id];
};

export const operationsOf = <K extends Principal['kind']>(kind: K): OperationsOf<K> =>
  Object.fromEntries(
    Object.entries(interfaceOperations).filter(([, operation]) =>
      (operation.interfaces as readonly Principal['kind'][]).includes(kind),
    ),
  ) as OperationsOf<K>;
