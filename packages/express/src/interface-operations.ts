import {
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
  statusHistoryResponseSchema,
  temporaryFilesResponseSchema,
  webhookDeliveryListQuerySchema,
  webhookDeliveryListResponseSchema,
  webhookDeliverySchema,
  webhookEndpointCreateBodySchema,
  webhookEndpointListResponseSchema,
  webhookEndpointSchema,
  webhookSecretRotationBodySchema,
  webhookSecretRotationResponseSchema,
} from '@onboarding-kit/core';
import type { OperationSpec } from './operation.js';

/** The routes of the three interfaces (spec section 4, decisions §1–§6), in mounting order. */

const requestBatchUpload = {
  method: 'post',
  path: '/uploads/request-batch-upload',
  summary: 'Request presigned upload addresses',
  description:
    'One PUT address per filename (1..50 distinct names), valid 15 minutes. The uploaded files land in ' +
    "the caller's temporary storage for 24 hours.",
  requestBody: batchUploadRequestSchema,
  success: { status: 200, description: 'One upload address per filename', schema: batchUploadResponseSchema },
  refusals: [],
} as const satisfies OperationSpec;

const listUploads = {
  method: 'get',
  path: '/uploads',
  summary: "List the caller's temporary files",
  success: {
    status: 200,
    description: 'The files in temporary storage',
    schema: temporaryFilesResponseSchema,
  },
  refusals: [],
} as const satisfies OperationSpec;

export const managerOperations = {
  createIndividual: {
    method: 'post',
    path: '/clients/individuals',
    summary: 'Create an individual client',
    description: 'Created in ONBOARDING_UNDER_REVIEW; the named uploads move to permanent storage.',
    requestBody: defaultOnboardingPayloadSchemas.individualPayload,
    success: { status: 201, description: 'The created client', schema: clientSchema },
    refusals: [],
  },
  resubmitIndividual: {
    method: 'put',
    path: '/clients/individuals/:clientId/onboarding',
    summary: 'Resubmit the onboarding of an individual client',
    description: 'From RESUBMISSION_REQUIRED only; replaces all earlier onboarding information.',
    requestBody: defaultOnboardingPayloadSchemas.individualPayload,
    success: {
      status: 201,
      description: 'The client, back in ONBOARDING_UNDER_REVIEW',
      schema: clientSchema,
    },
    refusals: ['CLIENT_NOT_FOUND', 'INVALID_STATUS'],
  },
  createEntity: {
    method: 'post',
    path: '/clients/entities',
    summary: 'Create an entity client',
    description: 'Created in ONBOARDING_UNDER_REVIEW; the named uploads move to permanent storage.',
    requestBody: defaultOnboardingPayloadSchemas.entityPayload,
    success: { status: 201, description: 'The created client', schema: clientSchema },
    refusals: [],
  },
  resubmitEntity: {
    method: 'put',
    path: '/clients/entities/:clientId/onboarding',
    summary: 'Resubmit the onboarding of an entity client',
    description: 'From RESUBMISSION_REQUIRED only; replaces all earlier onboarding information.',
    requestBody: defaultOnboardingPayloadSchemas.entityPayload,
    success: {
      status: 201,
      description: 'The client, back in ONBOARDING_UNDER_REVIEW',
      schema: clientSchema,
    },
    refusals: ['CLIENT_NOT_FOUND', 'INVALID_STATUS'],
  },
  listClients: {
    method: 'get',
    path: '/clients',
    summary: "List the manager's clients",
    description:
      'Newest first, `limit` 1..100 (default 20); pass `nextCursor` back as `cursor` for the next page.',
    query: clientListQuerySchema,
    success: { status: 200, description: 'One page of clients', schema: clientListResponseSchema },
    refusals: ['VALIDATION_FAILED'],
  },
  listEvents: {
    method: 'get',
    path: '/events',
    summary: "The manager's client events, oldest first",
    description:
      'One event per status change (`client.created`, `client.resubmitted`, `client.resubmission_requested`, ' +
      '`client.approved`, `client.terms_signed`, `client.deleted`) and per promotion of documents ' +
      '(`documents.promoted`), written with the change itself: a committed change always has its event, a ' +
      'refused or failed one none. Pass `nextCursor` back as `after` to read what follows (at the end it is ' +
      'the same cursor again, to poll from). `limit` 1..100 (default 20); filter by `type` or `clientId`.',
    query: clientEventListQuerySchema,
    success: { status: 200, description: 'One page of events', schema: clientEventListResponseSchema },
    refusals: ['VALIDATION_FAILED'],
  },
  createWebhookEndpoint: {
    method: 'post',
    path: '/webhook-endpoints',
    summary: 'Register a webhook endpoint',
    description:
      "The manager's events are POSTed to `url`, signed per the Standard Webhooks spec (`webhook-id`, " +
      '`webhook-timestamp`, `webhook-signature`) with the `secret` of the answer, shown only here. `https` to ' +
      'a public host only (loopback, private and link-local addresses are refused unless the host opted in). ' +
      '`eventTypes` limits what is delivered (default: every type). Delivery is at least once, retried with ' +
      'backoff for 3 days: deduplicate on `webhook-id`.',
    requestBody: webhookEndpointCreateBodySchema,
    success: {
      status: 201,
      description: 'The endpoint, with its signing secret (shown once)',
      schema: createdWebhookEndpointSchema,
    },
    refusals: ['WEBHOOK_ENDPOINT_LIMIT_REACHED'],
  },
  listWebhookEndpoints: {
    method: 'get',
    path: '/webhook-endpoints',
    summary: "The manager's webhook endpoints",
    success: {
      status: 200,
      description: 'The endpoints, oldest first',
      schema: webhookEndpointListResponseSchema,
    },
    refusals: [],
  },
  getWebhookEndpoint: {
    method: 'get',
    path: '/webhook-endpoints/:endpointId',
    summary: 'Get a webhook endpoint',
    success: { status: 200, description: 'The endpoint (never its secret)', schema: webhookEndpointSchema },
    refusals: ['WEBHOOK_ENDPOINT_NOT_FOUND'],
  },
  deleteWebhookEndpoint: {
    method: 'delete',
    path: '/webhook-endpoints/:endpointId',
    summary: 'Remove a webhook endpoint',
    description: 'Nothing more is delivered to it; its deliveries are removed with it.',
    success: { status: 200, description: 'The endpoint as it was', schema: webhookEndpointSchema },
    refusals: ['WEBHOOK_ENDPOINT_NOT_FOUND'],
  },
  rotateWebhookSecret: {
    method: 'post',
    path: '/webhook-endpoints/:endpointId/rotate-secret',
    summary: "Rotate a webhook endpoint's signing secret",
    description:
      'Answers the new secret (shown only here). The previous one keeps signing next to it for ' +
      '`overlapSeconds` (default 24 hours, 0 to stop at once): deliveries then carry two signatures.',
    requestBody: webhookSecretRotationBodySchema,
    success: { status: 200, description: 'The new secret', schema: webhookSecretRotationResponseSchema },
    refusals: ['WEBHOOK_ENDPOINT_NOT_FOUND'],
  },
  listWebhookDeliveries: {
    method: 'get',
    path: '/webhook-endpoints/:endpointId/deliveries',
    summary: "An endpoint's deliveries, newest first",
    description:
      'Each event sent to the endpoint: `pending` (retrying; `nextAttemptAt`), `succeeded`, or `failed` once ' +
      'its retry window ended. Filter by `status`; pass `nextCursor` back as `cursor` for older ones.',
    query: webhookDeliveryListQuerySchema,
    success: {
      status: 200,
      description: 'One page of deliveries',
      schema: webhookDeliveryListResponseSchema,
    },
    refusals: ['VALIDATION_FAILED', 'WEBHOOK_ENDPOINT_NOT_FOUND'],
  },
  redeliverWebhook: {
    method: 'post',
    path: '/webhook-endpoints/:endpointId/deliveries/:deliveryId/redeliver',
    summary: 'Deliver an event to an endpoint again',
    description: 'Attempted again now, whatever its status, with a fresh retry window.',
    success: { status: 200, description: 'The delivery, pending again', schema: webhookDeliverySchema },
    refusals: ['WEBHOOK_ENDPOINT_NOT_FOUND', 'WEBHOOK_DELIVERY_NOT_FOUND'],
  },
  getClient: {
    method: 'get',
    path: '/clients/:clientId',
    summary: 'Get a client',
    success: { status: 200, description: 'The client', schema: clientSchema },
    refusals: ['CLIENT_NOT_FOUND'],
  },
  deleteClient: {
    method: 'delete',
    path: '/clients/:clientId',
    summary: 'Delete a client (soft delete; its documents are kept)',
    success: { status: 200, description: 'The client, DELETED with deletedAt set', schema: clientSchema },
    refusals: ['CLIENT_NOT_FOUND', 'INVALID_STATUS'],
  },
  statusHistory: {
    method: 'get',
    path: '/clients/:clientId/status-history',
    summary: "A client's status history, oldest first",
    success: {
      status: 200,
      description: 'Every transition, from the creation on',
      schema: statusHistoryResponseSchema,
    },
    refusals: ['CLIENT_NOT_FOUND'],
  },
  requestBatchUpload,
  listUploads,
  requestBatchDownload: {
    method: 'post',
    path: '/documents/request-batch-download',
    summary: 'Request presigned download addresses',
    description:
      "Document keys (`<uuid>_<filename>`) of the manager's clients; each address, valid 15 minutes, " +
      'downloads the document as an attachment named with its original filename.',
    requestBody: batchDownloadRequestSchema,
    success: {
      status: 200,
      description: 'One download address per key',
      schema: batchDownloadResponseSchema,
    },
    refusals: ['DOCUMENT_NOT_FOUND'],
  },
  listPresetFees: {
    method: 'get',
    path: '/preset-fees',
    summary: "List the manager's preset fees",
    description: 'Newest `createdAt` first; items name the direction `feeDirection`.',
    success: { status: 200, description: 'The preset fees', schema: presetFeeListResponseSchema },
    refusals: [],
  },
  getPresetFee: {
    method: 'get',
    path: '/preset-fees/:presetFeeId',
    summary: 'Get a preset fee',
    description: 'The single item names the direction `transactionType` (the spec keeps this quirk).',
    success: { status: 200, description: 'The preset fee', schema: presetFeeSchema },
    refusals: ['PRESET_FEE_NOT_FOUND'],
  },
} as const satisfies Record<string, OperationSpec>;

export const clientOperations = { requestBatchUpload, listUploads } as const satisfies Record<
  string,
  OperationSpec
>;

export const complianceOperations = {
  approve: {
    method: 'post',
    path: '/clients/:clientId/approve',
    summary: "Approve a client's onboarding",
    description: 'ONBOARDING_UNDER_REVIEW → WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE. Takes no body.',
    success: { status: 200, description: 'The client', schema: clientSchema },
    refusals: ['CLIENT_NOT_FOUND', 'INVALID_STATUS'],
  },
  requestResubmission: {
    method: 'post',
    path: '/clients/:clientId/request-resubmission',
    summary: 'Ask the manager to resubmit the onboarding',
    description:
      'ONBOARDING_UNDER_REVIEW → RESUBMISSION_REQUIRED; the reason is shown as onboardingResubmissionReason.',
    requestBody: requestResubmissionBodySchema,
    success: { status: 200, description: 'The client', schema: clientSchema },
    refusals: ['CLIENT_NOT_FOUND', 'INVALID_STATUS'],
  },
  markTermsSigned: {
    method: 'post',
    path: '/clients/:clientId/terms-signed',
    summary: 'Record that the client signed the terms and conditions',
    description: 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE → VERIFIED. Takes no body.',
    success: { status: 200, description: 'The client', schema: clientSchema },
    refusals: ['CLIENT_NOT_FOUND', 'INVALID_STATUS'],
  },
} as const satisfies Record<string, OperationSpec>;
