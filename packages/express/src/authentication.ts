import type { OnboardingKit, Principal } from '@onboarding-kit/core';
import {
  type Forbidden,
  forbidden,
  type StorageUnavailable,
  type Unauthorized,
  unauthorized,
} from '@onboarding-kit/core/adapter';
import type { Request, RequestHandler, Response } from 'express';
import { err, errAsync, ok, okAsync, type Result, ResultAsync } from 'neverthrow';
import { type ErrorReportingOptions, errorReporting, sendHttpFailure } from './error-response.js';
import { type Internal, internal } from './http-error.js';

/**
 * A host's own authentication: the principal of the request, or null when it has none. Sync or
 * async; `res` is there for hosts that keep their user in `res.locals`.
 */
export type AuthenticateRequest = (
  req: Request,
  res: Response,
) => Principal | null | Promise<Principal | null>;

export type PrincipalKind = Principal['kind'];
export type PrincipalOfKind<K extends PrincipalKind> = Extract<Principal, { readonly kind: K }>;

export type AuthenticationOptions<K extends PrincipalKind> = ErrorReportingOptions & {
  /** The interface this middleware guards: a principal of any other interface is 403. */
  readonly accept: K;
  /**
   * Replaces the `SERVICE_API_KEY` lookup through the kit's ApiKeyStore. The refusals then name no
   * API key: 401 "Authentication is required", 403 "This caller may not use the … interface".
   */
  readonly authenticate?: AuthenticateRequest;
};

/** HTTP header names are case-insensitive: Node hands them over lower-cased. */
export const API_KEY_HEADER = 'SERVICE_API_KEY';

const principals = new WeakMap<Request, Principal>();

/** The principal the authentication middleware resolved for this request, if it ran. */
export const authenticatedPrincipal = (req: Request): Principal | undefined => principals.get(req);

export const isPrincipalOfKind = <K extends PrincipalKind>(
  principal: Principal,
  kind: K,
): principal is PrincipalOfKind<K> => principal.kind === kind;

const resolvePrincipal = (
  kit: Pick<OnboardingKit, 'apiKeys'>,
  req: Request,
  res: Response,
  authenticate: AuthenticateRequest | undefined,
): ResultAsync<Principal, Unauthorized | StorageUnavailable | Internal> => {
  if (authenticate === undefined) return kit.apiKeys.authenticate(req.get(API_KEY_HEADER));
  // A synchronous throw of the host's function is an Internal failure too.
  return ResultAsync.fromPromise(
    Promise.resolve().then(() => authenticate(req, res)),
    internal,
  ).andThen((principal) =>
    principal === null ? errAsync(unauthorized('Authentication is required')) : okAsync(principal),
  );
};

type AuthenticationFailure = Unauthorized | Forbidden | StorageUnavailable | Internal;

/** The principal if it is of the accepted kind, else the 403 that names both interfaces. */
const ofAcceptedKind = <K extends PrincipalKind>(
  principal: Principal,
  options: AuthenticationOptions<K>,
): Result<Principal, Forbidden> =>
  isPrincipalOfKind(principal, options.accept)
    ? ok(principal)
    : err(
        forbidden(
          options.authenticate === undefined
            ? `This API key belongs to the ${principal.kind} interface, not the ${options.accept} interface`
            : `This caller may not use the ${options.accept} interface`,
        ),
      );

/**
 * Calls `settle` with the caller of this request, of the accepted kind, or why not (401, 403, 503,
 * 500); `failed` with what the lookup or `settle` threw. This runs on every request of every route, so
 * the lookup settles once and the kind is checked in that same step (no `andThen`/`match` chain: each
 * link of one is a promise and a microtask more on every request).
 */
const authenticateOfKind = <K extends PrincipalKind>(
  kit: Pick<OnboardingKit, 'apiKeys'>,
  options: AuthenticationOptions<K>,
  req: Request,
  res: Response,
  settle: (caller: Result<Principal, AuthenticationFailure>) => void,
  failed: (cause: unknown) => void,
): void => {
  resolvePrincipal(kit, req, res, options.authenticate).then((resolved) => {
    try {
      settle(resolved.andThen((principal) => ofAcceptedKind(principal, options)));
    } catch (cause) {
      failed(cause);
    }
  }, failed);
};

/**
 * Resolves the caller before anything else runs (body parsing included), so an anonymous caller
 * learns nothing about a route but that it needs a key.
 */
export const createAuthenticationMiddleware = <K extends PrincipalKind>(
  kit: Pick<OnboardingKit, 'apiKeys'>,
  options: AuthenticationOptions<K>,
): RequestHandler => {
  const reporting = errorReporting(options);
  return (req, res, next) => {
    authenticateOfKind(
      kit,
      options,
      req,
      res,
      (caller) => {
        if (caller.isErr()) {
          sendHttpFailure(req, res, caller.error, reporting);
          return;
        }
        principals.set(req, caller.value);
        next();
      },
      next,
    );
  };
};

const refusals = new WeakMap<Request, AuthenticationFailure>();

/**
 * The interface routers' authentication, in two steps: `resolve` (mounted before every route) finds
 * the caller before anything is parsed; `refuse`, the first handler of each route and the last
 * before the 404, answers a caller without the right to it. Express has matched the route by then,
 * so the refusal's log line names the route's pattern (`/manager/v1/clients/:clientId`), never the
 * path as sent (a client's id); an unknown route still answers the refusal, not 404.
 */
export const createRoutedAuthentication = <K extends PrincipalKind>(
  kit: Pick<OnboardingKit, 'apiKeys'>,
  options: AuthenticationOptions<K>,
): { readonly resolve: RequestHandler; readonly refuse: RequestHandler } => {
  const reporting = errorReporting(options);
  return {
    resolve: (req, res, next) => {
      authenticateOfKind(
        kit,
        options,
        req,
        res,
        (caller) => {
          if (caller.isOk()) principals.set(req, caller.value);
          else refusals.set(req, caller.error);
          next();
        },
        next,
      );
    },
    refuse: (req, res, next) => {
      const failure = refusals.get(req);
      if (failure === undefined) next();
      else sendHttpFailure(req, res, failure, reporting);
    },
  };
};
