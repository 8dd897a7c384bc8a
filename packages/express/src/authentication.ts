import {
  forbidden,
  type OnboardingKit,
  type Principal,
  type StorageUnavailable,
  type Unauthorized,
  unauthorized,
} from '@onboarding-kit/core';
import type { Request, RequestHandler } from 'express';
import { errAsync, okAsync, ResultAsync } from 'neverthrow';
import { sendHttpFailure } from './error-response.js';
import { type Internal, internal } from './http-error.js';
import { consoleHttpLogger, type HttpLogger } from './http-logger.js';

/** A host's own authentication: the principal of the request, or null when it has none. */
export type AuthenticateRequest = (req: Request) => Promise<Principal | null>;

export type PrincipalKind = Principal['kind'];
export type PrincipalOfKind<K extends PrincipalKind> = Extract<Principal, { readonly kind: K }>;

export type AuthenticationOptions<K extends PrincipalKind> = {
  /** The interface this middleware guards: a valid key of any other interface is 403. */
  readonly accept: K;
  /** Replaces the `SERVICE_API_KEY` lookup through the kit's ApiKeyStore. */
  readonly authenticate?: AuthenticateRequest;
  readonly logger?: HttpLogger;
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
  authenticate: AuthenticateRequest | undefined,
): ResultAsync<Principal, Unauthorized | StorageUnavailable | Internal> => {
  if (authenticate === undefined) return kit.authenticate(req.get(API_KEY_HEADER));
  return ResultAsync.fromPromise(authenticate(req), internal).andThen((principal) =>
    principal === null ? errAsync(unauthorized()) : okAsync(principal),
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
  const logger = options.logger ?? consoleHttpLogger;
  return (req, res, next) => {
    // One settle of the lookup: this runs on every request of every route.
    resolvePrincipal(kit, req, options.authenticate)
      .match(
        (principal) => {
          if (!isPrincipalOfKind(principal, options.accept)) {
            sendHttpFailure(
              req,
              res,
              forbidden(
                `This API key belongs to the ${principal.kind} interface, not the ${options.accept} interface`,
              ),
              logger,
            );
            return;
          }
          principals.set(req, principal);
          next();
        },
        (failure) => sendHttpFailure(req, res, failure, logger),
      )
      .catch(next);
  };
};
