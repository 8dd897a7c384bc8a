import type { SignedLinkEndpoint } from '@onboarding-kit/core';
import express, { type Router } from 'express';
import { attachmentContentDisposition } from './content-disposition.js';
import { createErrorHandler, sendHttpFailure } from './error-response.js';
import { consoleHttpLogger, type HttpLogger } from './http-logger.js';
import { createRouteNotFoundHandler } from './interface-router.js';

export type SignedLinkRouterOptions = {
  /** Receives the causes of 500 and 503 answers (default: console.error). */
  readonly logger?: HttpLogger;
};

/**
 * Serves the presigned links of a storage that signs its own (the in-memory storage): `PUT
 * /uploads/:token` stores the raw body, `GET /downloads/:token` answers the document as an
 * attachment. The token is the only credential; a rejected one is 403, a body over the
 * endpoint's limit 413.
 */
export const createSignedLinkRouter = (
  endpoint: SignedLinkEndpoint,
  options: SignedLinkRouterOptions = {},
): Router => {
  const logger = options.logger ?? consoleHttpLogger;
  const router = express.Router();

  router.put(
    '/uploads/:token',
    express.raw({ type: () => true, limit: endpoint.maxUploadBytes }),
    (req, res, next) => {
      // No body at all (no Content-Length, no Transfer-Encoding) is an empty file.
      const body: unknown = req.body;
      const bytes = Buffer.isBuffer(body) ? new Uint8Array(body) : new Uint8Array(0);
      endpoint
        .acceptUpload(req.params.token ?? '', bytes)
        .match(
          () => {
            res.status(200).end();
          },
          (failure) => sendHttpFailure(req, res, failure, logger),
        )
        .catch(next);
    },
  );

  router.get('/downloads/:token', (req, res, next) => {
    endpoint
      .openDownload(req.params.token ?? '')
      .match(
        ({ body, filename }) => {
          res
            .status(200)
            .set({
              'Content-Type': 'application/octet-stream',
              'Content-Disposition': attachmentContentDisposition(filename),
              'X-Content-Type-Options': 'nosniff',
              'Cache-Control': 'private, no-store',
            })
            .send(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
        },
        (failure) => sendHttpFailure(req, res, failure, logger),
      )
      .catch(next);
  });

  router.use(createRouteNotFoundHandler(logger));
  router.use(createErrorHandler(logger));
  return router;
};
