import type { ErrorRequestHandler, Request, Response } from 'express';
import {
  type HttpFailure,
  internal,
  malformedJson,
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
  } else if (failure.type === 'StorageUnavailable') {
    logger.error('onboarding-kit: storage unavailable', {
      method: req.method,
      path: req.originalUrl,
      store: failure.store,
      cause: failure.cause,
    });
  }
  const answer = toHttpError(failure);
  res.status(answer.status).set(answer.headers).json(answer.body);
};

/** body-parser (v1 and v2) tags its errors with a string `type`; anything else thrown is internal. */
const bodyParserErrorType = (thrown: unknown): string | undefined => {
  if (typeof thrown !== 'object' || thrown === null || !('type' in thrown)) return undefined;
  return typeof thrown.type === 'string' ? thrown.type : undefined;
};

export const failureFromThrown = (thrown: unknown): HttpFailure => {
  switch (bodyParserErrorType(thrown)) {
    case 'entity.parse.failed':
      return malformedJson(thrown instanceof Error ? thrown.message : 'unparsable body');
    case 'entity.too.large': {
      const limit = (thrown as { limit?: unknown }).limit;
      return payloadTooLarge(typeof limit === 'number' ? limit : 0);
    }
    case 'charset.unsupported':
      return unsupportedMediaType('The request body must be UTF-8 encoded JSON');
    case 'encoding.unsupported':
      return unsupportedMediaType('This Content-Encoding is not supported');
    case 'request.aborted':
    case 'request.size.invalid':
      return malformedJson('the request body ended before its announced length');
    default:
      return internal(thrown);
  }
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
