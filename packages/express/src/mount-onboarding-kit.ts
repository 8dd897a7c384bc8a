import type { OnboardingKit } from '@onboarding-kit/core';
import type { Router } from 'express';
import { createApiDocsRouter } from './api-docs-router.js';
import type { AuthenticateRequest, PrincipalKind } from './authentication.js';
import { createClientRouter } from './client-router.js';
import { createComplianceRouter } from './compliance-router.js';
import type { ErrorReportingOptions } from './error-response.js';
import { createInterfaceBodyParserErrorHandler, createSignedLinkBodyGuard } from './host-body-parser.js';
import type { InFlightByteBudget } from './in-flight-byte-budget.js';
import type { RouterOptions } from './interface-router.js';
import type { ManagerRequestLimiter } from './manager-rate-limit.js';
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
  /** A request rate per manager on the manager interface (default none; see `RouterOptions`). */
  readonly managerRateLimit?: ManagerRequestLimiter;
  /**
   * `paths.openApi` serves the document of what is mounted (default on), its figures taken from
   * `kit.options`. Options other than the paths and interfaces (security schemes, the host's error
   * schema, a component prefix) go here. With `formatError`, `errorSchema` (the JSON Schema of that
   * body) is required, and without it refused: the mount throws rather than document a wrong body.
   */
  readonly openApi?:
    | false
    | Omit<OpenApiDocumentOptions, 'basePaths' | 'interfaces' | 'kitOptions' | 'managerRateLimit'>;
  /** Swagger UI at `paths.docs` (default off: needs the optional `swagger-ui-dist`). */
  readonly docsUi?: boolean | { readonly title?: string };
};

export type MountedOnboardingKit = {
  readonly paths: OnboardingKitPaths;
  /** The document served at `paths.openApi`, for a host that merges it into its own; null if off. */
  readonly openApiDocument: OpenApiDocument | null;
};

const interfaceRouters = {
  manager: createManagerRouter,
  client: createClientRouter,
  compliance: createComplianceRouter,
} as const satisfies Record<PrincipalKind, (kit: OnboardingKit, options: RouterOptions) => Router>;

/**
 * The document must describe the error body the host answers: `formatError` without
 * `openApi.errorSchema` would publish the kit's body for answers that never carry it, and the reverse
 * a host body that is never sent. A mistake of the host's wiring, refused when the app starts.
 */
const refuseUndocumentedErrorBody = (options: MountOnboardingKitOptions): void => {
  if (options.openApi === false) return;
  const hasFormat = options.formatError !== undefined;
  const hasSchema = options.openApi?.errorSchema !== undefined;
  if (hasFormat && !hasSchema) {
    throw new TypeError(
      'mountOnboardingKit: `formatError` is set but `openApi.errorSchema` is not: pass the JSON Schema of ' +
        'the body formatError returns as openApi.errorSchema (or openApi: false to serve no document)',
    );
  }
  if (hasSchema && !hasFormat) {
    throw new TypeError(
      'mountOnboardingKit: `openApi.errorSchema` is set but `formatError` is not: the kit would answer its ' +
        'own error body, not the one openApi.errorSchema describes; pass both or neither',
    );
  }
};

/**
 * Mounts the kit into a host's app or router from one prefix: the interfaces, memory storage's
 * signed links, the OpenAPI document (and optionally Swagger UI), all with the same authentication,
 * error formatting and logger. Each interface owns its path: anything there it does not know is its
 * JSON 404 `NOT_FOUND`. A JSON parser the host mounted before it is fine: its refusals are answered
 * as the kit's (`host-body-parser.ts`). The separate routers stay for hosts that wire them one by one.
 */
export const mountOnboardingKit = (
  app: Pick<Router, 'use'>,
  kit: OnboardingKit,
  options: MountOnboardingKitOptions = {},
): MountedOnboardingKit => {
  refuseUndocumentedErrorBody(options);
  const paths = onboardingKitPaths(options.prefix);
  const interfaces = new Set<PrincipalKind>(options.interfaces ?? ['manager', 'client', 'compliance']);
  const reporting: ErrorReportingOptions = {
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.formatError ? { formatError: options.formatError } : {}),
    ...(options.errorContentType ? { errorContentType: options.errorContentType } : {}),
    ...(options.requestIdOf ? { requestIdOf: options.requestIdOf } : {}),
  };
  const routerOptions: RouterOptions = {
    ...reporting,
    ...(options.authenticate ? { authenticate: options.authenticate } : {}),
    ...(options.jsonBodyTimeoutMs === undefined ? {} : { jsonBodyTimeoutMs: options.jsonBodyTimeoutMs }),
    ...(options.managerRateLimit === undefined ? {} : { managerRateLimit: options.managerRateLimit }),
  };
  for (const kind of ['manager', 'client', 'compliance'] as const) {
    if (!interfaces.has(kind)) continue;
    app.use(
      paths[kind],
      // A JSON parser the host mounted for its whole app reads the kit's bodies first: its refusals
      // are answered here as the kit's own.
      createInterfaceBodyParserErrorHandler(kit, { ...routerOptions, accept: kind }),
      interfaceRouters[kind](kit, routerOptions),
    );
  }
  if (options.signedLinks !== undefined) {
    app.use(
      paths.storage,
      // An upload a host parser read (or refused) before the link could: 415, not a wait for a body.
      ...createSignedLinkBodyGuard(reporting),
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
          ...(options.errorContentType ? { errorContentType: options.errorContentType } : {}),
          ...options.openApi,
          ...(options.managerRateLimit === undefined ? {} : { managerRateLimit: true }),
          basePaths: { manager: paths.manager, client: paths.client, compliance: paths.compliance },
          interfaces: [...interfaces],
          kitOptions: kit.options,
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
