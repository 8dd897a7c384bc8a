import type { OnboardingKit } from '@onboarding-kit/core';
import type { Router } from 'express';
import { operationsOf } from './interface-operations.js';
import { createInterfaceRouter, type RouterOptions } from './interface-router.js';

/**
 * The compliance team's review transitions (decisions §3), the review queue and its assignment, and
 * the reads a reviewer needs; mounted by the demo at `/compliance/v1`.
 */
export const createComplianceRouter = (kit: OnboardingKit, options: RouterOptions = {}): Router =>
  createInterfaceRouter(
    kit,
    'compliance',
    operationsOf('compliance'),
    {
      approve: ({ principal, params, context }) =>
        kit.compliance.approve(principal, params.clientId, context),
      requestResubmission: ({ principal, params, body, context }) =>
        kit.compliance.requestResubmission(principal, params.clientId, body, context),
      markTermsSigned: ({ principal, params, body, context }) =>
        kit.compliance.markTermsSigned(principal, params.clientId, body, context),
      redactClient: ({ principal, params, context }) =>
        kit.redaction.redact(principal, params.clientId, context),
      resolveScreeningHit: ({ principal, params, body, context }) =>
        kit.screening.resolveHit(principal, params.clientId, params.hitId, body, context),
      auditTrail: ({ principal, params, query }) => kit.audit.list(principal, params.clientId, query),
      verifyAuditTrail: ({ principal, params, query }) => kit.audit.verify(principal, params.clientId, query),
      getClient: ({ principal, params }) => kit.review.get(principal, params.clientId),
      statusHistory: ({ principal, params }) => kit.review.statusHistory(principal, params.clientId),
      deleteClient: ({ principal, params, context }) =>
        kit.review.delete(principal, params.clientId, context),
      reviewQueue: ({ principal, query }) => kit.review.queue(principal, query),
      assignNext: ({ principal, body, context }) => kit.review.assignNext(principal, body, context),
      assignClient: ({ principal, params, context }) =>
        kit.review.assign(principal, params.clientId, context),
      releaseClient: ({ principal, params, context }) =>
        kit.review.release(principal, params.clientId, context),
      requestClientDownloads: ({ principal, params, body, context }) =>
        kit.documents.requestClientDownloadBatch(principal, params.clientId, body, context),
    },
    options,
  );
