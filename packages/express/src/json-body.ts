import express, { type RequestHandler } from 'express';
import { type ErrorReporting, sendHttpFailure } from './error-response.js';
import {
  type HttpFailure,
  requestTimeout,
  unsupportedCharset,
  unsupportedContentEncoding,
  unsupportedMediaType,
} from './http-error.js';

/** Request bodies over this are 413 (decisions §7). */
export const MAX_JSON_BODY_BYTES = 1_048_576;

/** Default of `jsonBodyTimeoutMs`: 1 MiB at 300 kbit/s. */
export const DEFAULT_JSON_BODY_TIMEOUT_MS = 30_000;

export type JsonBodyOptions = {
  /**
   * How long a JSON body may take to arrive once the request is routed (default 30 s). A body not
   * received by then is answered 408 and its connection closed, so what it sent is freed.
   */
  readonly jsonBodyTimeoutMs?: number;
};

/**
 * Content-Encodings of a JSON body, the same on Express 4 and 5 (Express 5's body-parser also
 * inflates `br`, Express 4's does not: refused on both, so a client sees one behaviour).
 */
const JSON_BODY_ENCODINGS = new Set(['identity', 'gzip', 'deflate']);

/**
 * Every `charset` parameter of a Content-Type header, lower-cased and unquoted. All of them, not the
 * first: a parser that keeps the last of two must not read another charset than the one checked.
 * (A `charset=` inside another parameter's quoted value is counted too: that only refuses more.)
 */
const charsetsOf = (contentType: string): string[] =>
  // Without a `;` there is no parameter (the usual `application/json`): no regular expression to run.
  !contentType.includes(';')
    ? []
    : Array.from(contentType.matchAll(/;\s*charset\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/gi), (match) =>
        (match[1] ?? match[2] ?? '').replace(/\\(.)/g, '$1').toLowerCase(),
      );

/** Whether the request declares a body, as type-is (`req.is`, Express 4 and 5) reads it. */
const declaresBody = (req: Parameters<RequestHandler>[0]): boolean =>
  req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(req.headers['content-length']));

/** Why a declared JSON body cannot be read as UTF-8 JSON with the encodings both Express versions inflate. */
const unreadableJsonBody = (req: Parameters<RequestHandler>[0]): HttpFailure | undefined => {
  const contentType = req.headers['content-type'];
  // The usual header, exactly `application/json`: JSON with no parameter, so no charset to read, and
  // nothing for type-is to parse (it parsed and matched it on every request). Any other is `req.is`'s.
  const plainJson = contentType === 'application/json';
  // `req.is` is null without a body and false for another type: both are refused here.
  if (plainJson ? !declaresBody(req) : !req.is(['application/json', 'application/*+json'])) {
    return unsupportedMediaType('The request body must be JSON, sent with Content-Type: application/json');
  }
  if (!plainJson && charsetsOf(contentType ?? '').some((charset) => charset !== 'utf-8')) {
    return unsupportedCharset();
  }
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (!JSON_BODY_ENCODINGS.has(encoding)) return unsupportedContentEncoding();
  return undefined;
};

/**
 * 415 unless the body is declared JSON in UTF-8 (no charset, or `utf-8`), sent as identity, gzip or
 * deflate; then parses it (1 MiB at most). `strict: false` lets any JSON value through, so only a
 * syntax error is MALFORMED_JSON and a wrong shape is a validation error. One handler, not a
 * check and a parser mounted one after the other: each handler of a route is a step of Express's
 * router on every request.
 */
export const createJsonBodyParser = (
  reporting: ErrorReporting,
  { jsonBodyTimeoutMs = DEFAULT_JSON_BODY_TIMEOUT_MS }: JsonBodyOptions = {},
): RequestHandler => {
  const parseJson = express.json({ limit: MAX_JSON_BODY_BYTES, type: () => true, strict: false });
  return (req, res, next) => {
    const failure = unreadableJsonBody(req);
    if (failure !== undefined) {
      sendHttpFailure(req, res, failure, reporting);
      return;
    }
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      // The answer closes the connection: the parser then fails on the cut body and drops it.
      res.set('Connection', 'close');
      sendHttpFailure(req, res, requestTimeout(jsonBodyTimeoutMs), reporting);
    }, jsonBodyTimeoutMs);
    deadline.unref();
    parseJson(req, res, (error?: unknown) => {
      clearTimeout(deadline);
      // Once answered 408, the parser's own failure (the body cut short) is nobody's to hear.
      if (!timedOut) next(error);
    });
  };
};

/** True when the request carries no body bytes: no Transfer-Encoding, and no or a zero Content-Length. */
const hasNoBody = (req: Parameters<RequestHandler>[0]): boolean =>
  req.headers['transfer-encoding'] === undefined &&
  (req.headers['content-length'] === undefined || req.headers['content-length'] === '0');

/**
 * The JSON body parser of a route whose body is optional: a request without body bytes (whatever its
 * Content-Type) skips it and reaches the route with no body; any other goes through `parse`.
 * "No body" is set, not assumed: a host's own parser mounted before the kit (Express 4's
 * body-parser) sets `req.body` to `{}` for a request without one.
 */
export const optionalJsonBody =
  (parse: RequestHandler): RequestHandler =>
  (req, res, next) => {
    if (!hasNoBody(req)) {
      parse(req, res, next);
      return;
    }
    req.body = undefined;
    next();
  };
