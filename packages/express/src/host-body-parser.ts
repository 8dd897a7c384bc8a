import type { OnboardingKit } from '@onboarding-kit/core';
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import {
  type AuthenticationOptions,
  createAuthenticationMiddleware,
  type PrincipalKind,
} from './authentication.js';
import {
  type ErrorReportingOptions,
  errorReporting,
  failureFromThrown,
  sendHttpFailure,
} from './error-response.js';
import { internal, unsupportedMediaType } from './http-error.js';

/*
 * What the kit does about a body parser the host mounted for its whole app before the kit
 * (`app.use(express.json())`): that parser reads the kit's request bodies first, and its refusals
 * skip the kit's routers (Express hands an error to error middleware only).
 */

/** How body-parser (v1 and v2) tags a body it could not read: the caller's fault, 400, 413 or 415. */
const BODY_PARSER_REFUSALS = new Set([
  'entity.parse.failed',
  'entity.too.large',
  'charset.unsupported',
  'encoding.unsupported',
  'request.aborted',
  'request.size.invalid',
]);

const isBodyParserRefusal = (thrown: unknown): boolean =>
  typeof thrown === 'object' &&
  thrown !== null &&
  'type' in thrown &&
  typeof thrown.type === 'string' &&
  BODY_PARSER_REFUSALS.has(thrown.type);

/**
 * On an interface's path: the host parser's refusals would be answered by the host's error handler,
 * or Express's default HTML page with a stack trace. This answers them as the interface answers its
 * own: after the same authentication (an anonymous caller still learns only that it needs a key),
 * with the kit's error body (400 `MALFORMED_JSON`, 413, 415). Any other error is the host's, and
 * passed on.
 */
export const createInterfaceBodyParserErrorHandler = <K extends PrincipalKind>(
  kit: Pick<OnboardingKit, 'apiKeys'>,
  options: AuthenticationOptions<K>,
): ErrorRequestHandler => {
  const reporting = errorReporting(options);
  const authenticate = createAuthenticationMiddleware(kit, options);
  return (thrown, req, res, next) => {
    if (res.headersSent || !isBodyParserRefusal(thrown)) {
      next(thrown);
      return;
    }
    authenticate(req, res, (failure?: unknown) => {
      sendHttpFailure(
        req,
        res,
        failure === undefined ? failureFromThrown(thrown) : internal(failure),
        reporting,
      );
    });
  };
};

const readBeforeTheLink = (): ReturnType<typeof unsupportedMediaType> =>
  unsupportedMediaType(
    "This app read the upload's body before its link could store it: send the file with the link's " +
      'headers (Content-Type: application/octet-stream)',
  );

/** An upload's body read to its end by someone else (a body parser of the host) before the link. */
const consumed = (req: Request): boolean => req.method === 'PUT' && req.readableEnded;

/**
 * On the signed-link path: an upload whose body a host parser read (a file sent as
 * `application/json`) can no longer be stored as sent, and the link would wait for bytes that never
 * come (408 after the upload deadline); one the parser refused would get the host's answer. Both
 * are answered 415 at once, naming the headers to send.
 */
export const createSignedLinkBodyGuard = (
  options: ErrorReportingOptions,
): [RequestHandler, ErrorRequestHandler] => {
  const reporting = errorReporting(options);
  return [
    (req, res, next) => {
      if (consumed(req)) sendHttpFailure(req, res, readBeforeTheLink(), reporting);
      else next();
    },
    (thrown, req, res, next) => {
      if (res.headersSent || !isBodyParserRefusal(thrown)) {
        next(thrown);
        return;
      }
      res.set('Connection', 'close');
      sendHttpFailure(req, res, readBeforeTheLink(), reporting);
    },
  ];
};
