import type { ErrorCode, ParameterErrors } from '@onboarding-kit/core';
import type { ErrorRequestHandler, Request, Response } from 'express';
import {
  type HttpFailure,
  internal,
  malformedJson,
  malformedPath,
  payloadTooLarge,
  toHttpError,
  unsupportedCharset,
  unsupportedContentEncoding,
  unsupportedMediaType,
} from './http-error.js';
import { consoleHttpLogger, defaultRequestIdOf, type HttpLogger, type RequestIdOf } from './http-logger.js';
import { JSON_CONTENT_TYPE, sendJsonAnswer } from './json-answer.js';

/** A failure of the kit as the host may format it: status, the kit's code, reason and field paths. */
export type KitError = {
  readonly status: number;
  readonly code: ErrorCode;
  readonly reason: string;
  /** Problems by field path (`profile.email`, `filenames[2]`), or null. */
  readonly parameterErrors: ParameterErrors | null;
  /** Present when `parameterErrors` lists only the first paths: how many there were in all. */
  readonly totalParameterErrors?: number;
};

/**
 * The body the host answers for a kit failure, in its own error shape. The status and headers
 * (`Retry-After`) stay the kit's. Default: the kit's `{ code, reason, parameterErrors }`.
 */
export type FormatErrorBody = (
  error: KitError,
  request: { readonly req: Request; readonly res: Response },
) => unknown;

/** How the binding answers and reports failures: every router and middleware takes these options. */
export type ErrorReportingOptions = {
  /** Receives 500/503 causes (error) and refusals worth watching (warn). Default: the console. */
  readonly logger?: HttpLogger;
  /** The host's error body. */
  readonly formatError?: FormatErrorBody;
  /** The media type of error answers, with `formatError` (default `application/json; charset=utf-8`). */
  readonly errorContentType?: string;
  /** The request id written to every log line (default: `res.locals.requestId`, else `X-Request-Id`). */
  readonly requestIdOf?: RequestIdOf;
};

/** ErrorReportingOptions with their defaults applied. */
export type ErrorReporting = {
  readonly logger: HttpLogger;
  readonly formatError: FormatErrorBody | undefined;
  readonly errorContentType: string;
  readonly requestIdOf: RequestIdOf;
};

export const errorReporting = (options: ErrorReportingOptions = {}): ErrorReporting => ({
  logger: options.logger ?? consoleHttpLogger,
  formatError: options.formatError,
  errorContentType: options.errorContentType ?? JSON_CONTENT_TYPE,
  requestIdOf: options.requestIdOf ?? defaultRequestIdOf,
});

/**
 * The route as a pattern (`/storage/uploads/:token`, `/manager/v1/clients/:clientId`), never the
 * path as sent: a signed link's token, a client's id or a query string never reaches a log line.
 * Before any route matched (a middleware a host mounted with `app.use`, an unknown route), the
 * mount path and `/*`.
 */
const routePathOf = (req: Request): string => {
  const pattern: unknown = (req.route as { path?: unknown } | undefined)?.path;
  return `${req.baseUrl}${typeof pattern === 'string' ? pattern : '/*'}`;
};

/**
 * Statuses of refusals worth a warning: someone failing to authenticate, or pushing a limit (503:
 * the process's in-flight bytes; an outage is logged as an error above).
 */
const WATCHED_REFUSALS = new Set([401, 403, 413, 429, 503]);

/** Sends the mapped answer of a failure; what the body hides (causes) goes to the logger. */
export const sendHttpFailure = (
  req: Request,
  res: Response,
  failure: HttpFailure,
  reporting: ErrorReporting,
): void => {
  const answer = toHttpError(failure);
  const requestId = reporting.requestIdOf(req, res);
  const context = {
    method: req.method,
    path: routePathOf(req),
    status: answer.status,
    code: answer.body.code,
    ...(requestId === undefined ? {} : { requestId }),
  };
  if (failure.type === 'Internal') {
    reporting.logger.error('onboarding-kit: unexpected error', { ...context, cause: failure.cause });
  } else if (failure.type === 'StorageUnavailable' || failure.type === 'CommitOutcomeUnknown') {
    reporting.logger.error(
      `onboarding-kit: ${failure.type === 'StorageUnavailable' ? 'storage unavailable' : 'commit outcome unknown'}`,
      { ...context, store: failure.store, cause: failure.cause },
    );
  } else if (WATCHED_REFUSALS.has(answer.status)) {
    reporting.logger.warn?.(`onboarding-kit: refused (${answer.body.code})`, context);
  }
  const body =
    reporting.formatError === undefined
      ? answer.body
      : reporting.formatError(
          {
            status: answer.status,
            code: answer.body.code,
            reason: answer.body.reason,
            parameterErrors: answer.body.parameterErrors,
            ...(answer.body.totalParameterErrors === undefined
              ? {}
              : { totalParameterErrors: answer.body.totalParameterErrors }),
          },
          { req, res },
        );
  sendJsonAnswer(res, answer.status, body, answer.headers, reporting.errorContentType);
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
      return unsupportedCharset();
    case 'encoding.unsupported':
      return unsupportedContentEncoding();
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
export const createErrorHandler = (options: ErrorReportingOptions = {}): ErrorRequestHandler => {
  const reporting = errorReporting(options);
  return (thrown, req, res, next) => {
    // Nothing can be said once the response started: Express closes the connection.
    if (res.headersSent) {
      next(thrown);
      return;
    }
    sendHttpFailure(req, res, failureFromThrown(thrown), reporting);
  };
};
