import type {
  ClientCommandContext,
  DomainError,
  ErrorCode,
  Principal,
  ResolvedOnboardingKitOptions,
} from '@onboarding-kit/core';
import type { ResultAsync } from 'neverthrow';
import { z } from 'zod';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

/** A wire shape with its OpenAPI component name (`Client` → `#/components/schemas/Client`). */
export type NamedSchema = { readonly component: string; readonly schema: z.ZodType };

/**
 * A text of the OpenAPI document that states what the host configured (link lifetimes, limits):
 * written from the kit's resolved options, so it cannot drift from them.
 */
export type OptionText = string | ((options: DocumentedKitOptions) => string);

/** The kit's options the document states in its texts (the reference lists are the payloads' enums). */
export type DocumentedKitOptions = Omit<ResolvedOnboardingKitOptions, 'referenceLists'>;

/**
 * One route of the kit, declared once: the routers mount it on the interfaces it names and the
 * OpenAPI document is written from it, so the two cannot disagree.
 */
export type OperationSpec = {
  /** The interfaces that serve this route. */
  readonly interfaces: readonly Principal['kind'][];
  readonly method: HttpMethod;
  /** Express path, valid on Express 4 and 5 (plain `:name` parameters only). */
  readonly path: string;
  /** Takes an `Idempotency-Key` (decisions §5: every POST, PUT and DELETE). */
  readonly idempotent: boolean;
  /**
   * Decides on the client as its caller read it: an `If-Match` with the client's `ETag` (from GET
   * /clients/:clientId) is compared with the client in the command's own transaction, and another
   * version is 412 CLIENT_CHANGED, nothing done. Without the header the route runs as before.
   */
  readonly ifMatch?: true;
  /** Answers a Client with its version as a strong `ETag`, for a later `If-Match`. */
  readonly clientEtag?: true;
  readonly summary: string;
  readonly description?: OptionText;
  /**
   * The JSON body the route takes; routes without one never read the body. An `optional` body may
   * be left out (no body, or an empty one): the service then receives `undefined`.
   */
  readonly requestBody?: NamedSchema & {
    readonly optional?: true;
    /**
     * The operation's "Try it out" example made from its body schema's (default: that one as it
     * is), when two operations share a schema but one example cannot serve both.
     */
    readonly example?: (schemaExample: unknown) => unknown;
  };
  /** The query string the route reads. */
  readonly query?: z.ZodObject;
  readonly success: NamedSchema & { readonly status: 200 | 201; readonly description: string };
  /** Refusals the operation decides itself, besides those every route shares. */
  readonly refusals: readonly ErrorCode[];
};

/** `'/clients/:clientId/onboarding'` → `'clientId'`. */
export type PathParameterNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParameterNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

export type OperationInput<P, Spec extends OperationSpec> = {
  readonly principal: P;
  readonly params: Readonly<Record<PathParameterNames<Spec['path']>, string>>;
  /** The parsed query string when the operation declares `query`; undefined otherwise. */
  readonly query: unknown;
  readonly body: unknown;
  /**
   * The idempotency claim a writing command records its outcome under, the request id its audit
   * entries carry, and (on an `ifMatch` route) the client version the caller decided on.
   */
  readonly context: ClientCommandContext;
};

/** What a route does: call one core service. The binding maps the Result. */
export type OperationHandler<P, Spec extends OperationSpec> = (
  input: OperationInput<P, Spec>,
) => ResultAsync<unknown, DomainError>;

export type OperationHandlers<P, Operations extends Record<string, OperationSpec>> = {
  readonly [Id in keyof Operations]: OperationHandler<P, Operations[Id]>;
};

/**
 * The schema of every path parameter of the kit's routes, for the OpenAPI document. They are all
 * UUIDs; a malformed one still answers 404 like an unknown id (decisions: ids are not validated
 * apart from existence), so this documents the shape without adding a 400.
 */
export const pathParameterSchemas = {
  clientId: z.uuid(),
  presetFeeId: z.uuid(),
  endpointId: z.uuid(),
  deliveryId: z.uuid(),
  hitId: z.uuid(),
} as const satisfies Record<string, z.ZodType>;

export const pathParameterSchemaOf = (name: string): z.ZodType =>
  (pathParameterSchemas as Record<string, z.ZodType>)[name] ?? z.string();
