import type { OnboardingKit } from '@onboarding-kit/core';
import type { Router } from 'express';
import { operationsOf } from './interface-operations.js';
import { createInterfaceRouter, type RouterOptions } from './interface-router.js';

/** The manager interface (spec section 4 and decisions §1), mounted by the demo at `/manager/v1`. */
export const createManagerRouter = (kit: OnboardingKit, options: RouterOptions = {}): Router =>
  createInterfaceRouter(
    kit,
    'manager',
    operationsOf('manager'),
    {
      createIndividual: ({ principal, body, context }) =>
        kit.clients.createIndividual(principal, body, context),
      resubmitIndividual: ({ principal, params, body, context }) =>
        kit.clients.resubmitIndividual(principal, params.clientId, body, context),
      createEntity: ({ principal, body, context }) => kit.clients.createEntity(principal, body, context),
      resubmitEntity: ({ principal, params, body, context }) =>
        kit.clients.resubmitEntity(principal, params.clientId, body, context),
      listClients: ({ principal, query }) => kit.clients.list(principal, query),
      listEvents: ({ principal, query }) => kit.events.list(principal, query),
      createWebhookEndpoint: ({ principal, body, context }) =>
        kit.webhooks.createEndpoint(principal, body, context),
      listWebhookEndpoints: ({ principal }) => kit.webhooks.listEndpoints(principal),
      getWebhookEndpoint: ({ principal, params }) => kit.webhooks.getEndpoint(principal, params.endpointId),
      deleteWebhookEndpoint: ({ principal, params, context }) =>
        kit.webhooks.deleteEndpoint(principal, params.endpointId, context),
      rotateWebhookSecret: ({ principal, params, body, context }) =>
        kit.webhooks.rotateSecret(principal, params.endpointId, body, context),
      enableWebhookEndpoint: ({ principal, params, context }) =>
        kit.webhooks.enableEndpoint(principal, params.endpointId, context),
      listWebhookDeliveries: ({ principal, params, query }) =>
        kit.webhooks.listDeliveries(principal, params.endpointId, query),
      redeliverWebhook: ({ principal, params, context }) =>
        kit.webhooks.redeliver(principal, params.endpointId, params.deliveryId, context),
      getClient: ({ principal, params }) => kit.clients.get(principal, params.clientId),
      deleteClient: ({ principal, params, context }) =>
        kit.clients.delete(principal, params.clientId, context),
      statusHistory: ({ principal, params }) => kit.clients.statusHistory(principal, params.clientId),
      auditTrail: ({ principal, params, query }) => kit.audit.list(principal, params.clientId, query),
      requestBatchUpload: ({ principal, body, context }) =>
        kit.documents.requestUploadBatch(principal, body, context),
      listUploads: ({ principal }) => kit.documents.listUploads(principal),
      requestBatchDownload: ({ principal, body, context }) =>
        kit.documents.requestDownloadBatch(principal, body, context),
      listPresetFees: ({ principal }) => kit.presetFees.list(principal),
      getPresetFee: ({ principal, params }) => kit.presetFees.get(principal, params.presetFeeId),
    },
    options,
  );
