import { STATUS_CODES } from 'node:http';
import { type ErrorCode, errorCodes } from '@onboarding-kit/core';
import type { ErrorReportingOptions, FormatErrorBody, KitError } from './error-response.js';

/** RFC 9457's media type: the IETF Idempotency-Key draft answers its 400, 409 and 422 with it. */
export const PROBLEM_JSON_CONTENT_TYPE = 'application/problem+json';

/** An RFC 9457 problem, with the kit's `code` and field paths kept as extension members. */
export type ProblemDetails = {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly code: ErrorCode;
  /** Problems by field path (`profile.email`), or null. */
  readonly parameterErrors: KitError['parameterErrors'];
};

/** A short summary of each problem type, the same for every occurrence (RFC 9457 `title`). */
const titles = {
  VALIDATION_FAILED: 'Validation failed',
  MALFORMED_JSON: 'Malformed JSON body',
  UNAUTHORIZED: 'Authentication required',
  FORBIDDEN: 'Forbidden',
  NOT_FOUND: 'Route not found',
  CLIENT_NOT_FOUND: 'Client not found',
  PRESET_FEE_NOT_FOUND: 'Preset fee not found',
  DOCUMENT_NOT_FOUND: 'Document not found',
  WEBHOOK_ENDPOINT_NOT_FOUND: 'Webhook endpoint not found',
  WEBHOOK_DELIVERY_NOT_FOUND: 'Webhook delivery not found',
  SCREENING_HIT_NOT_FOUND: 'Screening hit not found',
  WEBHOOK_ENDPOINT_LIMIT_REACHED: 'Webhook endpoint limit reached',
  INVALID_STATUS: 'Not allowed in the current status',
  SCREENING_UNRESOLVED: 'Screening not resolved',
  CLIENT_CHANGED: 'Client changed since it was read',
  IDEMPOTENCY_REQUEST_IN_PROGRESS: 'A request with this Idempotency-Key is in progress',
  REQUEST_TIMEOUT: 'Request timeout',
  PAYLOAD_TOO_LARGE: 'Payload too large',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported media type',
  IDEMPOTENCY_KEY_REUSED: 'Idempotency-Key reused with another request',
  TOO_MANY_REQUESTS: 'Too many requests',
  SERVER_BUSY: 'Server busy',
  STORAGE_UNAVAILABLE: 'Storage unavailable',
  INTERNAL: 'Internal error',
} as const satisfies Record<ErrorCode, string>;

export type ProblemDetailsOptions = {
  /**
   * Where the host documents its problem types: `type` is this URI followed by the code in kebab
   * case (`https://docs.portal.example/problems/` → `…/problems/idempotency-key-reused`), and
   * `title` the code's summary. Without it `type` is `about:blank` and `title` the status phrase,
   * as RFC 9457 §4.2.1 asks; `code` tells the problems apart either way.
   */
  readonly typeBaseUri?: string;
};

const kebabCase = (code: ErrorCode): string => code.toLowerCase().replaceAll('_', '-');

/** The kit's failure as an RFC 9457 problem. No `instance`: a request URL may hold a signed link's token. */
export const toProblemDetails = (error: KitError, options: ProblemDetailsOptions = {}): ProblemDetails => ({
  type: options.typeBaseUri === undefined ? 'about:blank' : `${options.typeBaseUri}${kebabCase(error.code)}`,
  title: options.typeBaseUri === undefined ? (STATUS_CODES[error.status] ?? 'Error') : titles[error.code],
  status: error.status,
  detail: error.reason,
  code: error.code,
  parameterErrors: error.parameterErrors,
});

/**
 * The error options that make every refusal of the kit an `application/problem+json` answer:
 * spread them into `mountOnboardingKit`, a router's or a middleware's options, and pass
 * `problemDetailsSchema` as `openApi.errorSchema`.
 */
export const problemDetailsErrors = (
  options: ProblemDetailsOptions = {},
): Required<Pick<ErrorReportingOptions, 'formatError' | 'errorContentType'>> => {
  const formatError: FormatErrorBody = (error) => toProblemDetails(error, options);
  return { formatError, errorContentType: PROBLEM_JSON_CONTENT_TYPE };
};

/** The JSON Schema of `ProblemDetails`, for `openApi.errorSchema`. */
export const problemDetailsSchema = {
  type: 'object',
  description: "An RFC 9457 problem; `code` and `parameterErrors` are the kit's extension members.",
  required: ['type', 'title', 'status', 'detail', 'code', 'parameterErrors'],
  properties: {
    type: { type: 'string', format: 'uri-reference' },
    title: { type: 'string' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    detail: { type: 'string' },
    code: { type: 'string', enum: [...errorCodes] },
    parameterErrors: {
      description: 'Problems by field path (`profile.email`, `filenames[2]`), or null',
      anyOf: [
        { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
        { type: 'null' },
      ],
    },
  },
} as const;
