import type { ErrorRequestHandler, Request, Response } from 'express';
import {
  type HttpFailure,
  internal,
  malformedJson,
  malformedPath,
  payloadTooLarge,
  toHttpError,
  unsupportedMediaType,
} from './http-error.js';
import type { HttpLogger } from './http-logger.js';

/** Sends the mapped answer of a failure; what the body hides (causes) goes to the logger. */
export const sendHttpFailure = (
  req: Request,
  res: Response,
  failure: HttpFailure,
  logger: HttpLogger,
): void => {
  if (failure.type === 'Internal') {
    logger.error('onboarding-kit: unexpected error', {
      method: req.method,
      path: req.originalUrl,
      cause: failure.cause,
    });
  } else if (failure.type === 'StorageUnavailable' || failure.type === 'CommitOutcomeUnknown') {
    logger.error(
      `onboarding-kit: ${failure.type === 'StorageUnavailable' ? 'storage unavailable' : 'commit outcome unknown'}`,
      {
        method: req.method,
        path: req.originalUrl,
        store: failure.store,
        cause: failure.cause,
      },
    );
  }
  const answer = toHttpError(failure);
  res.status(answer.status).set(answer.headers).json(answer.body);
};

/** body-parser (v1 and v2) tags its errors with a string `type`. */
const bodyParserErrorType = (thrown: unknown): string | undefined => {
  if (typeof thrown !== 'object' || thrown === null || !('type' in thrown)) return undefined;
  return typeof thrown.type === 'string' ? thrown.type : undefined;
};

/** The 4xx status an http-errors error (body-parser, Express's router) carries, if any. */
const clientErrorStatus = (thrown: unknown): number | undefined => {
  if (typeof thrown !== 'object' || thrown === null) return undefined;
  const { status, statusCode } = thrown as { status?: unknown; statusCode?: unknown };
  const value = typeof status === 'number' ? status : statusCode;
  return typeof value === 'number' && value >= 400 && value < 500 ? value : undefined;
};

const messageOf = (thrown: unknown): string => (thrown instanceof Error ? thrown.message : String(thrown));

/**
 * What a thrown error means for the caller. Everything body-parser or Express's router refuses is
 * the caller's fault (a 4xx, never logged as internal): bad JSON, a body that cannot be inflated
 * (corrupt gzip), an encoding or charset not supported, a body cut short, a path whose
 * percent-encoding is not UTF-8. Only what carries no client status is internal.
 */
export const failureFromThrown = (thrown: unknown): HttpFailure => {
  switch (bodyParserErrorType(thrown)) {
    case 'entity.parse.failed':
      return malformedJson(messageOf(thrown));
    case 'entity.too.large': {
      const limit = (thrown as { limit?: unknown }).limit;
      return payloadTooLarge(typeof limit === 'number' ? limit : 0);
    }
    case 'charset.unsupported':
      return unsupportedMediaType('The request body must be UTF-8 encoded JSON');
    case 'encoding.unsupported':
      return unsupportedMediaType(
        'This Content-Encoding is not supported: send identity, gzip, deflate or br',
      );
    case 'request.aborted':
    case 'request.size.invalid':
      return malformedJson('the request body ended before its announced length');
    case 'stream.encoding.set':
    case 'stream.not.readable':
      return internal(thrown);
    default:
      break;
  }
  if (thrown instanceof URIError) return malformedPath();
  const status = clientErrorStatus(thrown);
  if (status === 413) return payloadTooLarge(0);
  if (status === 415) return unsupportedMediaType(messageOf(thrown));
  // zlib's errors (a gzip or deflate body that does not inflate) reach here with status 400.
  if (status !== undefined) return malformedJson(`the body could not be decoded (${messageOf(thrown)})`);
  return internal(thrown);
};

/** The error middleware of every router: thrown errors (body parsing, bugs) become the one error body. */
export const createErrorHandler =
  (logger: HttpLogger): ErrorRequestHandler =>
  (thrown, req, res, next) => {
    // Nothing can be said once the response started: Express closes the connection.
    if (res.headersSent) {
      next(thrown);
      return;
    }
    sendHttpFailure(req, res, failureFromThrown(thrown), logger);
  };
