import type { OnboardingKit } from '@onboarding-kit/core';
import type { SignedLinkEndpoint } from '@onboarding-kit/express';
import {
  consoleHttpLogger,
  createApiDocsRouter,
  createClientRouter,
  createComplianceRouter,
  createErrorHandler,
  createManagerRouter,
  createOpenApiDocument,
  createRouteNotFoundHandler,
  createSignedLinkRouter,
  type HttpLogger,
  type ManagerRequestLimiter,
} from '@onboarding-kit/express';
import { createReviewConsole } from '@onboarding-kit/review-console';
import express, { type Express } from 'express';
import { demoManagerNames, demoReviewerOf, requireDemoStaff } from './demo-staff-login.js';

/** The demo's paths (decisions §1 and §8). */
export const demoPaths = {
  manager: '/manager/v1',
  client: '/client/v1',
  compliance: '/compliance/v1',
  storage: '/storage',
  docs: '/docs',
  openApi: '/openapi.json',
  review: '/review',
} as const;

export type DemoAppOptions = {
  readonly kit: OnboardingKit;
  /** The memory storage's link endpoint, mounted at `/storage`; null when documents are in S3. */
  readonly signedLinks: SignedLinkEndpoint | null;
  /** Receives the causes of 500 and 503 answers (default: console.error). */
  readonly logger?: HttpLogger;
  /** MANAGER_RATE_LIMIT's limiter: each manager's request rate (default none). */
  readonly managerRateLimit?: ManagerRequestLimiter;
};

/**
 * The demo host: the three interfaces, the memory storage's signed links, `GET /openapi.json` and
 * `GET /docs` without a key, the review console at /review behind the staff login, and a JSON 404
 * for anything else.
 */
export const createDemoApp = ({
  kit,
  signedLinks,
  logger = consoleHttpLogger,
  managerRateLimit,
}: DemoAppOptions): Express => {
  const app = express();
  app.disable('x-powered-by');
  app.use(
    demoPaths.manager,
    createManagerRouter(kit, { logger, ...(managerRateLimit === undefined ? {} : { managerRateLimit }) }),
  );
  app.use(demoPaths.client, createClientRouter(kit, { logger }));
  app.use(demoPaths.compliance, createComplianceRouter(kit, { logger }));
  if (signedLinks !== null) app.use(demoPaths.storage, createSignedLinkRouter(signedLinks, { logger }));
  // The compliance team's console, behind the demo's staff login (HTTP Basic, demo-staff-login.ts).
  app.use(
    demoPaths.review,
    requireDemoStaff,
    createReviewConsole({ kit, reviewerOf: demoReviewerOf, managerNames: demoManagerNames }),
  );
  // The document of this kit: its lists are the enums, its options the figures.
  app.use(
    createApiDocsRouter({
      title: 'onboarding-kit demo',
      // With the rate limit on, every manager operation documents its 429.
      document: createOpenApiDocument({
        kitOptions: kit.options,
        managerRateLimit: managerRateLimit !== undefined,
      }),
    }),
  );
  // A browser opening the demo's address lands on the interactive docs.
  app.get('/', (_req, res) => {
    res.redirect(302, demoPaths.docs);
  });
  app.use(createRouteNotFoundHandler({ logger }));
  app.use(createErrorHandler({ logger }));
  return app;
};
