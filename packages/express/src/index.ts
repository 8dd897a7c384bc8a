/**
 * The public API of @onboarding-kit/express, the binding a host mounts into its Express app. Anything
 * not listed here is internal. The list is pinned by `docs/api/express.exports.txt`.
 */

export { type ApiDocsRouterOptions, createApiDocsRouter } from './api-docs-router.js';
// --- Authentication: SERVICE_API_KEY through the kit, or the host's own ----------------------------
export {
  API_KEY_HEADER,
  type AuthenticateRequest,
  type AuthenticationOptions,
  authenticatedPrincipal,
  createAuthenticationMiddleware,
  type PrincipalKind,
  type PrincipalOfKind,
} from './authentication.js';
export { createClientRouter } from './client-router.js';
export { createComplianceRouter } from './compliance-router.js';
// --- Errors and logs: the one error body (or the host's), and where causes go -----------------------
export {
  createErrorHandler,
  type ErrorReportingOptions,
  type FormatErrorBody,
  type KitError,
} from './error-response.js';
export {
  type BindingError,
  errorStatusByCode,
  type HttpError,
  type HttpFailure,
  toHttpError,
} from './http-error.js';
export {
  consoleHttpLogger,
  type HttpLogger,
  type LogDetails,
  type PinoShapedLogger,
  pinoHttpLogger,
  type RequestIdOf,
} from './http-logger.js';
export { IDEMPOTENCY_KEY_HEADER } from './idempotency-claim.js';
// --- Idempotency on the host's own routes ----------------------------------------------------------
export {
  createIdempotencyMiddleware,
  IDEMPOTENT_REPLAYED_HEADER,
  type IdempotencyMiddlewareOptions,
  isStorableResponse,
} from './idempotency-middleware.js';
export {
  createInFlightByteBudget,
  defaultInFlightByteLimits,
  type InFlightByteBudget,
  type InFlightByteLimits,
  type InFlightReservation,
  type InFlightScope,
} from './in-flight-byte-budget.js';
export { createRouteNotFoundHandler, type RouterOptions } from './interface-router.js';
export { MAX_JSON_BODY_BYTES } from './json-body.js';
// --- Keeping credentials and signed links' tokens out of the host's access logs -------------------
export {
  pinoRedaction,
  REDACTED,
  redactLogSecrets,
  redactSignedLinkTokens,
  SECRET_HEADER_NAMES,
  winstonRedaction,
} from './log-redaction.js';
// --- A request rate per manager, across processes with a shared store ----------------------------
export { type ManagerRequestLimiter, managerRateLimitKey } from './manager-rate-limit.js';
// --- The routers a host mounts one by one -----------------------------------------------------------
export { createManagerRouter } from './manager-router.js';
// --- One mount for everything, from one prefix ----------------------------------------------------
export {
  type MountedOnboardingKit,
  type MountOnboardingKitOptions,
  mountOnboardingKit,
  type OnboardingKitPaths,
  onboardingKitPaths,
} from './mount-onboarding-kit.js';
// --- The OpenAPI document of the three interfaces ---------------------------------------------------
export {
  createOpenApiDocument,
  defaultInterfaceBasePaths,
  type InterfaceBasePaths,
  type OpenApiDocument,
  type OpenApiDocumentOptions,
} from './openapi-document.js';
// --- RFC 9457 Problem Details in place of the kit's error body -------------------------------------
export {
  PROBLEM_JSON_CONTENT_TYPE,
  type ProblemDetails,
  type ProblemDetailsOptions,
  problemDetailsErrors,
  problemDetailsSchema,
  toProblemDetails,
} from './problem-details.js';
export type { SignedLinkEndpoint, UploadLinkTarget } from './signed-link-endpoint.js';
export { createSignedLinkRouter, type SignedLinkRouterOptions } from './signed-link-router.js';
