import type { OnboardingKit } from '@onboarding-kit/core';
import type { Router } from 'express';
import { createApiDocsRouter } from './api-docs-router.js';
import type { AuthenticateRequest, PrincipalKind } from './authentication.js';
import { createClientRouter } from './client-router.js';
import { createComplianceRouter } from './compliance-router.js';
import type { ErrorReportingOptions } from './error-response.js';
import type { InFlightByteBudget } from './in-flight-byte-budget.js';
import type { RouterOptions } from './interface-router.js';
import { createManagerRouter } from './manager-router.js';
import {
  createOpenApiDocument,
  type OpenApiDocument,
  type OpenApiDocumentOptions,
} from './openapi-document.js';
import type { SignedLinkEndpoint } from './signed-link-endpoint.js';
import { createSignedLinkRouter } from './signed-link-router.js';

/** Where everything of the kit lives under one prefix: the one source of every path. */
export type OnboardingKitPaths = {
  readonly manager: string;
  readonly client: string;
  readonly compliance: string;
  /** The signed-link routes of memory storage: memory adapters' `publicBaseUrl` is origin + this. */
  readonly storage: string;
  readonly openApi: string;
  readonly docs: string;
};

/** The paths of every part of the kit under `prefix` (`''` or `/onboarding`, no trailing slash). */
export const onboardingKitPaths = (prefix = ''): OnboardingKitPaths => {
  const base = prefix.replace(/\/+$/, '');
  if (base !== '' && !base.startsWith('/')) throw new Error(`the prefix must start with /, not ${prefix}`);
  return {
    manager: `${base}/manager/v1`,
    client: `${base}/client/v1`,
    compliance: `${base}/compliance/v1`,
    storage: `${base}/storage`,
    openApi: `${base}/openapi.json`,
    docs: `${base}/docs`,
  };
};

export type MountOnboardingKitOptions = ErrorReportingOptions & {
  /** Every route of the kit lives under it (default: the root). */
  readonly prefix?: string;
  /** The interfaces to mount (default all three); the OpenAPI document lists only these. */
  readonly interfaces?: readonly PrincipalKind[];
  /** The host's authentication, in place of `SERVICE_API_KEY` (see `createAuthenticationMiddleware`). */
  readonly authenticate?: AuthenticateRequest;
  /**
   * Memory storage's signed-link endpoint (memory mode: the app serves the files), mounted at
   * `paths.storage`. Not needed with S3, whose links point at the bucket.
   */
  readonly signedLinks?: SignedLinkEndpoint;
  readonly uploadTimeoutMs?: number;
  /** The signed-link router's bound on upload bytes in flight (see `SignedLinkRouterOptions`). */
  readonly inFlightBudget?: InFlightByteBudget;
  /** How long a JSON body may take to arrive (default 30 s, see `RouterOptions`). */
  readonly jsonBodyTimeoutMs?: number;
  /**
   * `paths.openApi` serves the document of what is mounted (default on). Options other than the
   * paths and interfaces (security schemes, the host's error schema, a component prefix) go here.
   */
  readonly openApi?: false | Omit<OpenApiDocumentOptions, 'basePaths' | 'interfaces'>;
  /** Swagger UI at `paths.docs` (default off: needs the optional `swagger-ui-dist`). */
  readonly docsUi?: boolean | { readonly title?: string };
};

export type MountedOnboardingKit = {
  readonly paths: OnboardingKitPaths;
  /** The document served at `paths.openApi`, for a host that merges it into its own; null if off. */
  readonly openApiDocument: OpenApiDocument | null;
};

/**
 * Mounts the kit into a host's app or router from one prefix: the interfaces, memory storage's
 * signed links, the OpenAPI document (and optionally Swagger UI), all with the same authentication,
 * error formatting and logger. The separate routers stay for hosts that wire them one by one.
 */
export const mountOnboardingKit = (
  app: Pick<Router, 'use'>,
  kit: OnboardingKit,
  options: MountOnboardingKitOptions = {},
): MountedOnboardingKit => {
  const paths = onboardingKitPaths(options.prefix);
  const interfaces = new Set<PrincipalKind>(options.interfaces ?? ['manager', 'client', 'compliance']);
  const reporting: ErrorReportingOptions = {
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.formatError ? { formatError: options.formatError } : {}),
    ...(options.requestIdOf ? { requestIdOf: options.requestIdOf } : {}),
  };
  const routerOptions: RouterOptions = {
    ...reporting,
    ...(options.authenticate ? { authenticate: options.authenticate } : {}),
    ...(options.jsonBodyTimeoutMs === undefined ? {} : { jsonBodyTimeoutMs: options.jsonBodyTimeoutMs }),
  };
  if (interfaces.has('manager')) app.use(paths.manager, createManagerRouter(kit, routerOptions));
  if (interfaces.has('client')) app.use(paths.client, createClientRouter(kit, routerOptions));
  if (interfaces.has('compliance')) app.use(paths.compliance, createComplianceRouter(kit, routerOptions));
  if (options.signedLinks !== undefined) {
    app.use(
      paths.storage,
      createSignedLinkRouter(options.signedLinks, {
        ...reporting,
        ...(options.uploadTimeoutMs === undefined ? {} : { uploadTimeoutMs: options.uploadTimeoutMs }),
        ...(options.inFlightBudget === undefined ? {} : { inFlightBudget: options.inFlightBudget }),
      }),
    );
  }
  const openApiDocument =
    options.openApi === false
      ? null
      : createOpenApiDocument({
          ...options.openApi,
          basePaths: { manager: paths.manager, client: paths.client, compliance: paths.compliance },
          interfaces: [...interfaces],
        });
  if (openApiDocument !== null) {
    const docsUi = options.docsUi ?? false;
    app.use(
      options.prefix?.replace(/\/+$/, '') || '/',
      createApiDocsRouter({
        document: openApiDocument,
        ui: docsUi !== false,
        ...(typeof docsUi === 'object' && docsUi.title ? { title: docsUi.title } : {}),
      }),
    );
  }
  return { paths, openApiDocument };
};
