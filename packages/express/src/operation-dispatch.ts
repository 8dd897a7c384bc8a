import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** One operation's route: its method, its Express pattern (`/clients/:clientId/approve`), its handlers. */
export type DispatchedRoute = {
  readonly method: string;
  readonly path: string;
  readonly handlers: readonly RequestHandler[];
};

type Segment = { readonly literal: string } | { readonly param: string };

type CompiledRoute = {
  readonly segments: readonly Segment[];
  readonly handlers: readonly RequestHandler[];
  /** What `req.route` says once matched: the pattern, as Express's Route gives it. */
  readonly route: { readonly path: string; readonly methods: Readonly<Record<string, true>> };
};

const compile = ({ method, path, handlers }: DispatchedRoute): CompiledRoute => {
  if (!path.startsWith('/') || /[()*?+{}[\]\\]/.test(path) || path.includes('//')) {
    throw new TypeError(`operation paths are literal segments and :params only, not ${path}`);
  }
  return {
    handlers,
    segments: path
      .split('/')
      .slice(1)
      .map((segment) =>
        segment.startsWith(':') ? { param: segment.slice(1) } : { literal: segment.toLowerCase() },
      ),
    route: Object.freeze({ path, methods: Object.freeze({ [method.toLowerCase()]: true as const }) }),
  };
};

/** Express's parameter decoding: a malformed percent-encoding is a URIError with status 400. */
const decodeParam = (raw: string): string => {
  try {
    return decodeURIComponent(raw);
  } catch (thrown) {
    if (thrown instanceof URIError) {
      throw Object.assign(thrown, { message: `Failed to decode param '${raw}'`, status: 400 });
    }
    throw thrown;
  }
};

/** The parameters of `parts` under `route`, or null when the path is not this route's. */
const matchRoute = (route: CompiledRoute, parts: readonly string[]): Record<string, string> | null => {
  if (parts.length !== route.segments.length) return null;
  let params: Record<string, string> | null = null;
  for (let index = 0; index < parts.length; index += 1) {
    const segment = route.segments[index] as Segment;
    const part = parts[index] as string;
    if ('literal' in segment) {
      // Any case matches, as in Express; a part already in lower case (nearly every request) costs no copy.
      if (
        part !== segment.literal &&
        (part.length !== segment.literal.length || part.toLowerCase() !== segment.literal)
      )
        return null;
    } else {
      if (part === '') return null;
      params ??= {};
      params[segment.param] = part;
    }
  }
  return params ?? {};
};

/** Runs `handlers` one after the other as Express runs a route's stack; `done` gets what falls through. */
const runHandlers = (
  handlers: readonly RequestHandler[],
  req: Request,
  res: Response,
  done: NextFunction,
): void => {
  let index = 0;
  const next = (signal?: unknown): void => {
    if (signal === 'route') {
      done();
      return;
    }
    if (signal !== undefined && signal !== null) {
      done(signal);
      return;
    }
    const handler = handlers[index];
    index += 1;
    if (handler === undefined) {
      done();
      return;
    }
    try {
      const returned: unknown = handler(req, res, next);
      if (returned instanceof Promise)
        returned.then(undefined, (thrown: unknown) => next(thrown ?? new Error()));
    } catch (thrown) {
      done(thrown);
    }
  };
  next();
};

/**
 * The routes of one interface as one middleware that finds the request's route by method and path,
 * in place of one Express route layer per operation tried in turn (each a regular expression match
 * and a trip through the router's `next`). It keeps Express's matching rules for these patterns:
 *
 * - paths compare case-insensitively, and one trailing slash is allowed (`strict: false`);
 * - a `:param` is one non-empty segment, percent-decoded into `req.params`; a malformed encoding is
 *   passed on as Express passes it (a URIError with status 400);
 * - HEAD is served by a GET route; routes are tried in the order registered, and a route whose
 *   handlers all call `next()` falls through to the next one that matches, as in Express;
 * - a match sets `req.params` and `req.route` (`{ path, methods }`, the pattern: what hosts' metrics
 *   and the kit's error log read); no match calls `next()`.
 */
export const createOperationDispatch = (routes: readonly DispatchedRoute[]): RequestHandler => {
  const compiled = routes.map((route) => ({ method: route.method.toUpperCase(), route: compile(route) }));
  // The routes a request of `method` tries, in the order registered: an Express route of GET also
  // answers HEAD.
  const routesFor = (method: string) =>
    compiled
      .filter((entry) => entry.method === method || (method === 'HEAD' && entry.method === 'GET'))
      .map((entry) => entry.route);
  const methods = new Set(['HEAD', ...compiled.map((entry) => entry.method)]);
  const byMethod = new Map([...methods].map((method) => [method, routesFor(method)] as const));
  return (req, res, next) => {
    const candidates = byMethod.get(req.method);
    if (candidates === undefined) {
      next();
      return;
    }
    const pathname = req.path;
    const trimmed = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
    const parts = trimmed.split('/').slice(1);
    // A route whose handlers all call next() falls through to the next matching one, as in Express.
    const tryFrom = (start: number, fellThrough?: unknown): void => {
      if (fellThrough !== undefined && fellThrough !== null) {
        next(fellThrough);
        return;
      }
      for (let index = start; index < candidates.length; index += 1) {
        const route = candidates[index] as CompiledRoute;
        const raw = matchRoute(route, parts);
        if (raw === null) continue;
        const params: Record<string, string> = {};
        try {
          for (const name of Object.keys(raw)) params[name] = decodeParam(raw[name] as string);
        } catch (thrown) {
          next(thrown);
          return;
        }
        req.params = params;
        (req as { route: unknown }).route = route.route;
        runHandlers(route.handlers, req, res, (signal?: unknown) => tryFrom(index + 1, signal));
        return;
      }
      next();
    };
    tryFrom(0);
  };
};
