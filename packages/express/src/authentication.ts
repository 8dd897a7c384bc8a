import type { OnboardingKit, Principal } from '@onboarding-kit/core';
import {
  forbidden,
  type StorageUnavailable,
  type Unauthorized,
  unauthorized,
} from '@onboarding-kit/core/adapter';
import type { Request, RequestHandler, Response } from 'express';
import { errAsync, okAsync, ResultAsync } from 'neverthrow';
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
  kit: Pick<OnboardingKit, 'authenticate'>,
  req: Request,
  res: Response,
  authenticate: AuthenticateRequest | undefined,
): ResultAsync<Principal, Unauthorized | StorageUnavailable | Internal> => {
  if (authenticate === undefined) return kit.authenticate(req.get(API_KEY_HEADER));
  // A synchronous throw of the host's function is an Internal failure too.
  return ResultAsync.fromPromise(
    Promise.resolve().then(() => authenticate(req, res)),
    internal,
  ).andThen((principal) =>
    principal === null ? errAsync(unauthorized('Authentication is required')) : okAsync(principal),
  );
};

/**
 * Resolves the caller before anything else runs (body parsing included), so an anonymous caller
 * learns nothing about a route but that it needs a key.
 */
export const createAuthenticationMiddleware = <K extends PrincipalKind>(
  kit: Pick<OnboardingKit, 'authenticate'>,
  options: AuthenticationOptions<K>,
): RequestHandler => {
  const reporting = errorReporting(options);
  const wrongInterface = (kind: PrincipalKind) =>
    options.authenticate === undefined
      ? `This API key belongs to the ${kind} interface, not the ${options.accept} interface`
      : `This caller may not use the ${options.accept} interface`;
  return (req, res, next) => {
    // One settle of the lookup: this runs on every request of every route.
    resolvePrincipal(kit, req, res, options.authenticate)
      .match(
        (principal) => {
          if (!isPrincipalOfKind(principal, options.accept)) {
            sendHttpFailure(req, res, forbidden(wrongInterface(principal.kind)), reporting);
            return;
          }
          principals.set(req, principal);
          next();
        },
        (failure) => sendHttpFailure(req, res, failure, reporting),
      )
      .catch(next);
  };
};
