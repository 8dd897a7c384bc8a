import type { KitError } from '@onboarding-kit/express';
import type { Response } from 'express';

/**
 * The one error shape of the portal, its own failures and the kit's alike:
 * `{ "error": { "code", "message", "requestId", "fields"? } }`. The kit's codes and field paths are
 * kept as they are.
 */
export type PortalErrorBody = {
  readonly error: {
    readonly code: string;
    readonly message: string;
    readonly requestId: string;
    readonly fields?: Readonly<Record<string, readonly string[]>>;
  };
};

export const requestIdOf = (res: Response): string => String(res.locals.requestId ?? 'unknown');

export const portalErrorBody = (
  res: Response,
  code: string,
  message: string,
  fields?: Readonly<Record<string, readonly string[]>> | null,
): PortalErrorBody => ({
  error: {
    code,
    message,
    requestId: requestIdOf(res),
    ...(fields ? { fields } : {}),
  },
});

/** The kit's failures in the portal's shape (the kit keeps the status and headers). */
export const formatKitError = (error: KitError, { res }: { readonly res: Response }): PortalErrorBody =>
  portalErrorBody(res, error.code, error.reason, error.parameterErrors);

/** The JSON Schema of the portal's error body, for the OpenAPI document the portal serves. */
export const portalErrorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'requestId'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        requestId: { type: 'string' },
        fields: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
      },
    },
  },
} as const;
