import { attachmentContentDisposition } from '@onboarding-kit/core/adapter';
import express, { type Request, type Response, type Router } from 'express';
import { match } from 'ts-pattern';

import {
  createErrorHandler,
  type ErrorReporting,
  type ErrorReportingOptions,
  errorReporting,
  sendHttpFailure,
} from './error-response.js';
import {
  type HttpFailure,
  inFlightBytesExceeded,
  malformedJson,
  payloadTooLarge,
  requestTimeout,
  unsupportedMediaType,
} from './http-error.js';
import {
  createInFlightByteBudget,
  defaultInFlightByteLimits,
  type InFlightByteBudget,
} from './in-flight-byte-budget.js';
import { createRouteNotFoundHandler } from './interface-router.js';
import type { SignedLinkEndpoint } from './signed-link-endpoint.js';

export type SignedLinkRouterOptions = ErrorReportingOptions & {
  /**
   * How long an upload body may take to arrive once its headers are in (default 2 minutes: 25 MiB
   * at 2 Mbit/s). A slower sender is answered 408 and cut off, so it cannot hold memory or a socket.
   */
  readonly uploadTimeoutMs?: number;
  /**
   * Bounds the upload bytes in flight per link, per owner and in all (default
   * `defaultInFlightByteLimits(maxUploadBytes)`: one maximal upload per link, four per owner, eight
   * in all). Share one budget between routers of one process with `createInFlightByteBudget`.
   */
  readonly inFlightBudget?: InFlightByteBudget;
};

const DEFAULT_UPLOAD_TIMEOUT_MS = 120_000;
/** What a refusal for bytes in flight suggests waiting: a few seconds, as uploads finish. */
const IN_FLIGHT_RETRY_AFTER_SECONDS = 5;

/** A failure answered before the body was read: the connection closes rather than drain it. */
const refuseUnread = (req: Request, res: Response, failure: HttpFailure, reporting: ErrorReporting): void => {
  res.set('Connection', 'close');
  sendHttpFailure(req, res, failure, reporting);
};

type BodyOutcome =
  | { readonly type: 'Read'; readonly bytes: Uint8Array }
  | { readonly type: 'TooLarge' }
  | { readonly type: 'TimedOut' }
  | { readonly type: 'Aborted' };

/**
 * Reads the body as it streams, stopping at `limit` bytes (never more is held) or at the deadline.
 * Chunks are kept as received and joined once.
 */
const readBoundedBody = (req: Request, limit: number, timeoutMs: number): Promise<BodyOutcome> =>
  new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const settle = (outcome: BodyOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('aborted', onAbort);
      req.off('close', onAbort);
      if (outcome.type !== 'Read') req.pause();
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.byteLength;
      if (received > limit) {
        chunks.length = 0;
        settle({ type: 'TooLarge' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => settle({ type: 'Read', bytes: new Uint8Array(Buffer.concat(chunks, received)) });
    const onAbort = () => settle({ type: 'Aborted' });
    const deadline = setTimeout(() => settle({ type: 'TimedOut' }), timeoutMs);
    deadline.unref();
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('aborted', onAbort);
    // A connection closed before the body ended (after 'end', the outcome is already settled).
    req.on('close', onAbort);
  });

/** The announced body length, null without one; NaN when the header is not a plain number. */
const announcedLength = (req: Request): number | null => {
  const header = req.headers['content-length'];
  if (header === undefined) return null;
  return /^\d{1,16}$/.test(header) ? Number(header) : Number.NaN;
};

/**
 * Serves the presigned links of a storage that signs its own (the in-memory storage): `PUT
 * /uploads/:token` stores the raw body, `GET /downloads/:token` answers the document as an
 * attachment. The token is the only credential. Everything that can be judged from the request
 * line and headers (the link, its expiry, the owner's quota, the announced length, an encoding) is
 * judged before a byte of the body is read: a rejected link is 403, a body over the limit 413, a
 * compressed body 415, a body that does not arrive in time 408.
 */
export const createSignedLinkRouter = (
  endpoint: SignedLinkEndpoint,
  options: SignedLinkRouterOptions = {},
): Router => {
  const reporting = errorReporting(options);
  const uploadTimeoutMs = options.uploadTimeoutMs ?? DEFAULT_UPLOAD_TIMEOUT_MS;
  const budget =
    options.inFlightBudget ?? createInFlightByteBudget(defaultInFlightByteLimits(endpoint.maxUploadBytes));
  const router = express.Router();

  router.put('/uploads/:token', (req, res, next) => {
    const permitted = endpoint.verifyUpload(req.params.token ?? '');
    if (permitted.isErr()) {
      refuseUnread(req, res, permitted.error, reporting);
      return;
    }
    const { owner, filename } = permitted.value;
    const length = announcedLength(req);
    if (Number.isNaN(length)) {
      refuseUnread(req, res, malformedJson('the Content-Length header is not a byte count'), reporting);
      return;
    }
    if (length !== null && length > endpoint.maxUploadBytes) {
      refuseUnread(req, res, payloadTooLarge(endpoint.maxUploadBytes), reporting);
      return;
    }
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
      // The file is stored as sent: a compressed body would be stored compressed, so it is refused.
      refuseUnread(
        req,
        res,
        unsupportedMediaType('Upload the file as is: Content-Encoding is not supported on upload links'),
        reporting,
      );
      return;
    }
    // A body without a length may grow to the limit: that much is reserved for it.
    const reservation = budget.reserve(length ?? endpoint.maxUploadBytes, {
      link: JSON.stringify([owner, filename]),
      owner,
    });
    if (reservation.type === 'Refused') {
      // Over a bound on its own it can never fit (413); else it waits for others to finish.
      const refusal =
        (length ?? endpoint.maxUploadBytes) > reservation.limitBytes
          ? payloadTooLarge(reservation.limitBytes)
          : inFlightBytesExceeded(reservation.scope, IN_FLIGHT_RETRY_AFTER_SECONDS);
      refuseUnread(req, res, refusal, reporting);
      return;
    }
    readBoundedBody(req, endpoint.maxUploadBytes, uploadTimeoutMs)
      .then((outcome) =>
        match(outcome)
          .with({ type: 'TooLarge' }, () =>
            refuseUnread(req, res, payloadTooLarge(endpoint.maxUploadBytes), reporting),
          )
          .with({ type: 'TimedOut' }, () =>
            refuseUnread(req, res, requestTimeout(uploadTimeoutMs), reporting),
          )
          // The caller is gone: there is nobody to answer.
          .with({ type: 'Aborted' }, () => undefined)
          .with({ type: 'Read' }, ({ bytes }) =>
            endpoint.acceptUpload(req.params.token ?? '', bytes).match(
              () => {
                res.status(200).end();
              },
              (failure) => sendHttpFailure(req, res, failure, reporting),
            ),
          )
          .exhaustive(),
      )
      // Every path ends here: stored, refused, timed out, aborted, or thrown.
      .finally(reservation.release)
      .catch(next);
  });

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
        (failure) => sendHttpFailure(req, res, failure, reporting),
      )
      .catch(next);
  });

  router.use(createRouteNotFoundHandler(options));
  router.use(createErrorHandler(options));
  return router;
};
