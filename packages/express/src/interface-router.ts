import type { OnboardingKit } from '@onboarding-kit/core';
import express, { type Request, type RequestHandler, type Router } from 'express';
import {
  type AuthenticateRequest,
  authenticatedPrincipal,
  createAuthenticationMiddleware,
  isPrincipalOfKind,
  type PrincipalKind,
  type PrincipalOfKind,
} from './authentication.js';
import { createErrorHandler, sendHttpFailure } from './error-response.js';
import { routeNotFound } from './http-error.js';
import { consoleHttpLogger, type HttpLogger } from './http-logger.js';
import { createIdempotencyMiddleware, idempotentCommandContext } from './idempotency-middleware.js';
import { createJsonBodyParser } from './json-body.js';
import {
  isWriteOperation,
  type OperationHandler,
  type OperationHandlers,
  type OperationInput,
  type OperationSpec,
} from './operation.js';

/** What a host may pass to `createManagerRouter`, `createClientRouter` and `createComplianceRouter`. */
export type RouterOptions = {
  /** The host's own authentication, in place of `SERVICE_API_KEY` through the kit's ApiKeyStore. */
  readonly authenticate?: AuthenticateRequest;
  /** Receives the causes of 500 and 503 answers (default: console.error). */
  readonly logger?: HttpLogger;
};

/** A JSON 404 for anything under the router's mount path that no route matched. */
export const createRouteNotFoundHandler =
  (logger: HttpLogger): RequestHandler =>
  (req, res) =>
    sendHttpFailure(req, res, routeNotFound(req.method, req.originalUrl.split('?')[0] ?? ''), logger);

const runOperation = <K extends PrincipalKind, Spec extends OperationSpec>(
  kind: K,
  operation: Spec,
  handler: OperationHandler<PrincipalOfKind<K>, Spec>,
  logger: HttpLogger,
): RequestHandler => {
  return (req: Request, res, next) => {
    const principal = authenticatedPrincipal(req);
    if (principal === undefined || !isPrincipalOfKind(principal, kind)) {
      next(new Error(`No ${kind} principal on an authenticated route`));
      return;
    }
    const input: OperationInput<PrincipalOfKind<K>, Spec> = {
      principal,
      // Express fills every parameter of the matched path.
      params: req.params as OperationInput<PrincipalOfKind<K>, Spec>['params'],
      query: req.query,
      body: req.body,
      context: idempotentCommandContext(req, operation.success.status),
    };
    handler(input)
      .match(
        (value) => {
          res.status(operation.success.status).json(value);
        },
        (failure) => sendHttpFailure(req, res, failure, logger),
      )
      .catch(next);
  };
};

/**
 * One interface as a router: authenticate (before anything is parsed, so an anonymous caller
 * learns nothing), parse a JSON body where the route takes one, apply idempotency on writes, call
 * the core service, map the Result. Unknown routes and thrown errors answer the error body.
 */
export const createInterfaceRouter = <
  K extends PrincipalKind,
  Operations extends Record<string, OperationSpec>,
>(
  kit: Pick<OnboardingKit, 'authenticate' | 'idempotency'>,
  kind: K,
  operations: Operations,
  handlers: OperationHandlers<PrincipalOfKind<K>, Operations>,
  options: RouterOptions = {},
): Router => {
  const logger = options.logger ?? consoleHttpLogger;
  const router = express.Router();
  router.use(
    createAuthenticationMiddleware(kit, {
      accept: kind,
      logger,
      ...(options.authenticate ? { authenticate: options.authenticate } : {}),
    }),
  );
  const jsonBody = createJsonBodyParser(logger);
  const idempotency = createIdempotencyMiddleware(kit.idempotency, { logger });
  for (const id of Object.keys(operations) as (keyof Operations & string)[]) {
    const operation = operations[id] as Operations[typeof id];
    router[operation.method](
      operation.path,
      ...(operation.requestBody ? jsonBody : []),
      ...(isWriteOperation(operation) ? [idempotency] : []),
      runOperation(kind, operation, handlers[id], logger),
    );
  }
  router.use(createRouteNotFoundHandler(logger));
  router.use(createErrorHandler(logger));
  return router;
};
