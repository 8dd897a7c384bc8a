import type { OnboardingKit } from '@onboarding-kit/core';
import type { Router } from 'express';
import { operationsOf } from './interface-operations.js';
import { createInterfaceRouter, type RouterOptions } from './interface-router.js';

/**
 * The client interface (decisions §1), mounted by the demo at `/client/v1`. A host adds its own
 * routes (the spec's `POST /transactions`) beside it, guarded by `createIdempotencyMiddleware`.
 */
export const createClientRouter = (kit: OnboardingKit, options: RouterOptions = {}): Router =>
  createInterfaceRouter(
    kit,
    'client',
    operationsOf('client'),
    {
      requestBatchUpload: ({ principal, body, context }) =>
        kit.documents.requestUploadBatch(principal, body, context),
      listUploads: ({ principal }) => kit.documents.listUploads(principal),
    },
    options,
  );
