import type { Request, Response } from 'express';

export type LogDetails = Readonly<Record<string, unknown>>;

/**
 * Where the binding reports what it hides from response bodies, in winston's shape
 * (`logger.error(message, details)`; a winston logger fits as it is, pino through
 * `pinoHttpLogger`). `error`: the causes of 500 and 503 answers. `warn` (optional): refusals worth
 * watching — failed authentication (401, 403), bodies over the limit (413), callers over a quota
 * (429). Details name the method, the route (its pattern: a signed link's token is never logged),
 * the status, the error code and the request id; never a body or a document name.
 */
export type HttpLogger = {
  error(message: string, details: LogDetails): void;
  warn?(message: string, details: LogDetails): void;
};

export const consoleHttpLogger: HttpLogger = {
  error: (message, details) => console.error(message, details),
  warn: (message, details) => console.warn(message, details),
};

/** The part of a pino logger the binding uses: pino takes the details first, then the message. */
export type PinoShapedLogger = {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
};

/** A pino logger (or a pino child with the host's bindings) as the binding's logger. */
export const pinoHttpLogger = (pino: PinoShapedLogger): HttpLogger => ({
  error: (message, details) => pino.error(details, message),
  warn: (message, details) => pino.warn(details, message),
});

/**
 * The id a host gave the request, so the binding's lines correlate with the host's: by default
 * `res.locals.requestId`, else the `X-Request-Id` header.
 */
export type RequestIdOf = (req: Request, res: Response) => string | undefined;

export const defaultRequestIdOf: RequestIdOf = (req, res) => {
  const fromLocals: unknown = res.locals.requestId;
  if (typeof fromLocals === 'string') return fromLocals;
  return req.get('x-request-id') ?? undefined;
};
