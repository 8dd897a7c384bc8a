import {
  type Client,
  type ClientCommandContext,
  type DomainError,
  type IdempotentCommandContext,
  type OnboardingKit,
  principalKey,
} from '@onboarding-kit/core';
import type { RecordedOutcome } from '@onboarding-kit/core/adapter';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { err, ok, type Result } from 'neverthrow';
import { match } from 'ts-pattern';
import {
  type AuthenticateRequest,
  authenticatedPrincipal,
  createRoutedAuthentication,
  isPrincipalOfKind,
  type PrincipalKind,
  type PrincipalOfKind,
} from './authentication.js';
import { clientEtag, parseIfMatchHeader } from './client-etag.js';
import {
  createErrorHandler,
  type ErrorReporting,
  type ErrorReportingOptions,
  errorReporting,
  sendHttpFailure,
} from './error-response.js';
import { internal, routeNotFound } from './http-error.js';
import { claimKeyOfRequest, parseIdempotencyKeyHeader, renewWhileRunning } from './idempotency-claim.js';
import { IDEMPOTENT_REPLAYED_HEADER } from './idempotency-middleware.js';
import { sendJsonAnswer } from './json-answer.js';
import { createJsonBodyParser, optionalJsonBody } from './json-body.js';
import { createManagerRateLimitMiddleware, type ManagerRequestLimiter } from './manager-rate-limit.js';
import type { OperationHandler, OperationHandlers, OperationInput, OperationSpec } from './operation.js';

/**
 * What a host may pass to `createManagerRouter`, `createClientRouter` and `createComplianceRouter`:
 * its own authentication, and how failures are answered and logged (`ErrorReportingOptions`).
 */
export type RouterOptions = ErrorReportingOptions & {
  /** The host's own authentication, in place of `SERVICE_API_KEY` through the kit's ApiKeyStore. */
  readonly authenticate?: AuthenticateRequest;
  /** How long a JSON body may take to arrive (default 30 s): then 408, its connection closed. */
  readonly jsonBodyTimeoutMs?: number;
  /**
   * A request rate per manager (default none), on the manager interface only: see
   * `ManagerRequestLimiter`. Use a limiter with a shared store to hold it across processes.
   */
  readonly managerRateLimit?: ManagerRequestLimiter;
};

/** A JSON 404 for anything under the router's mount path that no route matched. */
export const createRouteNotFoundHandler = (options: ErrorReportingOptions = {}): RequestHandler => {
  const reporting = errorReporting(options);
  return (req, res) =>
    sendHttpFailure(req, res, routeNotFound(req.method, req.originalUrl.split('?')[0] ?? ''), reporting);
};

/** Sends a core Result as the operation's answer: its success status and value, or the mapped error. */
const sendOutcome = (
  req: Request,
  res: Response,
  operation: OperationSpec,
  outcome: Result<unknown, DomainError>,
  reporting: ErrorReporting,
) =>
  outcome.match(
    (value) => {
      if (operation.clientEtag) res.setHeader('ETag', clientEtag(value as Client));
      sendJsonAnswer(res, operation.success.status, value);
    },
    (failure) => sendHttpFailure(req, res, failure, reporting),
  );

/** Sends a replayed outcome exactly as the first answer was sent, marked `Idempotent-Replayed`. */
const sendReplay = (
  req: Request,
  res: Response,
  operation: OperationSpec,
  outcome: RecordedOutcome,
  reporting: ErrorReporting,
) => {
  match(outcome)
    .with({ kind: 'command', ok: true }, ({ value }) => {
      res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
      sendOutcome(req, res, operation, ok(value), reporting);
    })
    .with({ kind: 'command', ok: false }, ({ error }) => {
      res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
      sendOutcome(req, res, operation, err(error), reporting);
    })
    // Kit commands record their outcome in domain terms; a host route's answer is never theirs.
    .with({ kind: 'response' }, () =>
      sendHttpFailure(
        req,
        res,
        internal(new Error('a host route answer replayed on a kit route')),
        reporting,
      ),
    )
    .exhaustive();
};

/** The command's context with what the request adds: its id, and the client version it decided on. */
const withRequest = (
  context: IdempotentCommandContext,
  requestId: string | undefined,
  expectedVersion: string | undefined,
): ClientCommandContext =>
  requestId === undefined && expectedVersion === undefined
    ? context
    : {
        ...context,
        ...(requestId === undefined ? {} : { requestId }),
        ...(expectedVersion === undefined ? {} : { expectedVersion }),
      };

/**
 * One operation: call its core service and map the Result. An idempotent operation with an
 * Idempotency-Key first claims the key (or replays it); the core command then owns the claim
 * (records its outcome or releases it, `runCommand`), while this keeps its lock renewed.
 */
const runOperation = <K extends PrincipalKind, Spec extends OperationSpec>(
  kit: Pick<OnboardingKit, 'idempotency'>,
  kind: K,
  operation: Spec,
  handler: OperationHandler<PrincipalOfKind<K>, Spec>,
  reporting: ErrorReporting,
): RequestHandler => {
  return (req: Request, res, next) => {
    const principal = authenticatedPrincipal(req);
    if (principal === undefined || !isPrincipalOfKind(principal, kind)) {
      next(new Error(`No ${kind} principal on an authenticated route`));
      return;
    }
    // The request id goes with the command, to its audit entries.
    const requestId = reporting.requestIdOf(req, res);
    let expectedVersion: string | undefined;
    // Read only when sent: a decision without it runs no code of the precondition.
    if (operation.ifMatch && req.headers['if-match'] !== undefined) {
      const ifMatch = parseIfMatchHeader(req);
      if (ifMatch.isErr()) {
        sendHttpFailure(req, res, ifMatch.error, reporting);
        return;
      }
      expectedVersion = ifMatch.value;
    }
    const run = (context: IdempotentCommandContext) =>
      handler({
        principal,
        // Express fills every parameter of the matched path.
        params: req.params as OperationInput<PrincipalOfKind<K>, Spec>['params'],
        // Read only for an operation that declares its query: Express 5 parses the query string at
        // every read of `req.query`, and most operations (every write) take none. Not a getter: an
        // object literal with one is a dictionary object whose accessor keeps the request's objects
        // (through its closure) past young collections, about 6 KB a create (docs/performance.md).
        query: operation.query === undefined ? undefined : req.query,
        body: req.body,
        context: withRequest(context, requestId, expectedVersion),
      });
    // Without an Idempotency-Key (every read, most writes) the command runs at once and its answer
    // is sent from one `then`: no async function awaiting neverthrow's thenables, and no second
    // promise only to catch what sending threw.
    const runAndSend = (context: IdempotentCommandContext) => {
      run(context).then((outcome) => {
        try {
          sendOutcome(req, res, operation, outcome, reporting);
        } catch (cause) {
          next(cause);
        }
      }, next);
    };
    if (!operation.idempotent) {
      runAndSend({});
      return;
    }
    const header = parseIdempotencyKeyHeader(req);
    if (header.isErr()) {
      sendHttpFailure(req, res, header.error, reporting);
      return;
    }
    if (header.value === null) {
      runAndSend({});
      return;
    }
    const respondKeyed = async (key: string): Promise<void> => {
      const keyed = await claimKeyOfRequest(kit.idempotency, req, principalKey(principal), key);
      if (keyed.isErr()) {
        sendHttpFailure(req, res, keyed.error, reporting);
        return;
      }
      const request = keyed.value;
      if (request.type === 'Replay') {
        sendReplay(req, res, operation, request.outcome, reporting);
        return;
      }
      const stopRenewing = renewWhileRunning(kit.idempotency, request.ref, req, reporting.logger);
      try {
        sendOutcome(req, res, operation, await run({ claim: request.ref }), reporting);
      } finally {
        stopRenewing();
      }
    };
    respondKeyed(header.value).catch(next);
  };
};

/**
 * One interface as an Express router: authenticate (before anything is parsed, so an anonymous
 * caller learns nothing), then one Express route per operation (parse a JSON body where the route
 * takes one, apply idempotency on idempotent operations, call the core service, map the Result).
 * Express's own matching applies (any case, one trailing slash, HEAD by GET, decoded parameters),
 * and `req.route` / `req.params` are Express's. Unknown routes and thrown errors answer the error body.
 */
export const createInterfaceRouter = <
  K extends PrincipalKind,
  Operations extends Record<string, OperationSpec>,
>(
  kit: Pick<OnboardingKit, 'apiKeys' | 'idempotency'>,
  kind: K,
  operations: Operations,
  handlers: OperationHandlers<PrincipalOfKind<K>, Operations>,
  options: RouterOptions = {},
): Router => {
  const reporting = errorReporting(options);
  const router = express.Router();
  const authentication = createRoutedAuthentication(kit, { ...options, accept: kind });
  router.use(authentication.resolve);
  if (kind === 'manager' && options.managerRateLimit !== undefined) {
    router.use(createManagerRateLimitMiddleware(options.managerRateLimit, reporting));
  }
  const jsonBody = createJsonBodyParser(reporting, options);
  const optionalBody = optionalJsonBody(jsonBody);
  for (const id of Object.keys(operations) as (keyof Operations & string)[]) {
    const operation = operations[id] as Operations[typeof id];
    router[operation.method](
      operation.path,
      authentication.refuse,
      ...(operation.requestBody ? [operation.requestBody.optional ? optionalBody : jsonBody] : []),
      runOperation(kit, kind, operation, handlers[id], reporting),
    );
  }
  router.use(authentication.refuse);
  router.use(createRouteNotFoundHandler(options));
  router.use(createErrorHandler(options));
  return router;
};
