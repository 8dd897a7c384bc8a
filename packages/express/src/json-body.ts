import express, { type RequestHandler } from 'express';
import { type ErrorReporting, sendHttpFailure } from './error-response.js';
import { unsupportedMediaType } from './http-error.js';

/** Request bodies over this are 413 (decisions §7). */
export const MAX_JSON_BODY_BYTES = 1_048_576;

/**
 * 415 unless the body is declared JSON, then parses it (1 MiB at most). `strict: false` lets any
 * JSON value through, so only a syntax error is MALFORMED_JSON and a wrong shape is a validation error.
 */
export const createJsonBodyParser = (reporting: ErrorReporting): RequestHandler[] => [
  (req, res, next) => {
    // `req.is` is null without a body and false for another type: both are refused here.
    if (req.is(['application/json', 'application/*+json'])) {
      next();
      return;
    }
    sendHttpFailure(
      req,
      res,
      unsupportedMediaType('The request body must be JSON, sent with Content-Type: application/json'),
      reporting,
    );
  },
  express.json({ limit: MAX_JSON_BODY_BYTES, type: () => true, strict: false }),
];
