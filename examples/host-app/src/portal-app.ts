import { randomUUID } from 'node:crypto';
import type { OnboardingKit } from '@onboarding-kit/core';
import type { SignedLinkEndpoint } from '@onboarding-kit/express';
import {
  createAuthenticationMiddleware,
  createIdempotencyMiddleware,
  type HttpLogger,
  type MountedOnboardingKit,
  mountOnboardingKit,
  redactSignedLinkTokens,
} from '@onboarding-kit/express';
import express, { type ErrorRequestHandler, type Express } from 'express';
import type { PortalLogger } from './json-lines-logger.js';
import { formatKitError, portalErrorBody, portalErrorSchema } from './portal-errors.js';
import { sessionPrincipal } from './portal-sessions.js';

/** Where the portal mounts onboarding-kit: every kit path derives from it. */
export const ONBOARDING_PREFIX = '/onboarding';

export type PortalAppOptions = {
  readonly kit: OnboardingKit;
  /** Memory mode: the app itself serves the presigned upload and download links. */
  readonly signedLinks: SignedLinkEndpoint;
  readonly logger: PortalLogger;
};

/** The portal's logger as the kit's: the same JSON lines, the kit's details included. */
const kitLoggerOf = (logger: PortalLogger): HttpLogger => ({
  error: (message, details) => logger.error(message, details),
  warn: (message, details) => logger.warn(message, details),
});

/**
 * An existing manager-portal backend: its own request ids, bearer sessions, error shape, JSON-line
 * logs and routes, with onboarding-kit mounted under /onboarding by one call.
 */
export const createPortalApp = ({
  kit,
  signedLinks,
  logger,
}: PortalAppOptions): { app: Express; onboarding: MountedOnboardingKit } => {
  const app = express();
  app.disable('x-powered-by');

  // Request ids: the caller's X-Request-Id, or a new one; echoed, and on every log line. The access
  // line names the URL without a signed link's token (the link's credential) and no header at all.
  app.use((req, res, next) => {
    const requestId = req.get('x-request-id') ?? randomUUID();
    res.locals.requestId = requestId;
    res.set('X-Request-Id', requestId);
    const requestLogger = logger.child({ requestId });
    res.on('finish', () =>
      requestLogger.info('request', {
        method: req.method,
        status: res.statusCode,
        route: req.baseUrl + (req.route?.path ?? ''),
        url: redactSignedLinkTokens(req.originalUrl),
      }),
    );
    next();
  });

  // The portal's own route, behind its own sessions.
  app.get('/portal/me', (req, res) => {
    const principal = sessionPrincipal(req);
    if (principal === null) {
      res.status(401).json(portalErrorBody(res, 'UNAUTHORIZED', 'Sign in first'));
      return;
    }
    res.json({ principal });
  });

  // A critical route of the portal made retry-safe with the kit's idempotency (spec: the host's
  // own POST /transactions): a repeat with the same Idempotency-Key replays the first answer.
  app.post(
    '/portal/payouts',
    createAuthenticationMiddleware(kit, {
      accept: 'manager',
      authenticate: sessionPrincipal,
      formatError: formatKitError,
      logger: kitLoggerOf(logger),
    }),
    express.json(),
    createIdempotencyMiddleware(kit.idempotency, {
      formatError: formatKitError,
      logger: kitLoggerOf(logger),
    }),
    (req, res) => {
      const amount: unknown = req.body?.amount;
      if (typeof amount !== 'number' || !(amount > 0)) {
        res.status(400).json(
          portalErrorBody(res, 'VALIDATION_FAILED', 'Invalid payout', {
            amount: ['Must be a positive number'],
          }),
        );
        return;
      }
      res.status(201).json({ payoutId: randomUUID(), amount });
    },
  );

  const onboarding = mountOnboardingKit(app, kit, {
    prefix: ONBOARDING_PREFIX,
    interfaces: ['manager', 'compliance'],
    authenticate: sessionPrincipal,
    signedLinks,
    formatError: formatKitError,
    logger: kitLoggerOf(logger),
    openApi: {
      title: 'Portal onboarding',
      securitySchemes: { BearerSession: { type: 'http', scheme: 'bearer', description: 'A portal session' } },
      errorSchema: portalErrorSchema,
      componentPrefix: 'Onboarding',
    },
  });

  // The portal's own 404 and error handler: its error shape everywhere.
  app.use((req, res) => {
    res.status(404).json(portalErrorBody(res, 'NOT_FOUND', `No route ${req.method} ${req.path}`));
  });
  const portalErrors: ErrorRequestHandler = (error, _req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    // A client error thrown by a middleware of the portal's own routes (body-parser's malformed
    // JSON, a body over the limit) keeps its status.
    const status: unknown = error?.status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const code = error?.type === 'entity.parse.failed' ? 'MALFORMED_JSON' : 'BAD_REQUEST';
      res.status(status).json(portalErrorBody(res, code, 'The request could not be read'));
      return;
    }
    logger.child({ requestId: res.locals.requestId }).error('unexpected error', { cause: error });
    res.status(500).json(portalErrorBody(res, 'INTERNAL', 'Something went wrong'));
  };
  app.use(portalErrors);
  return { app, onboarding };
};
