import type { DomainError, ErrorCode, IdempotentCommandContext } from '@onboarding-kit/core';
import type { ResultAsync } from 'neverthrow';
import { z } from 'zod';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

/**
 * One route of an interface, described once: the router mounts it and the OpenAPI document is
 * written from it, so the two cannot disagree.
 */
export type OperationSpec = {
  readonly method: HttpMethod;
  /** Express path, valid on Express 4 and 5 (plain `:name` parameters only). */
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  /** The JSON body the route takes; routes without one never read the body. */
  readonly requestBody?: z.ZodType;
  /** The query string the route reads. */
  readonly query?: z.ZodObject;
  readonly success: { readonly status: 200 | 201; readonly description: string; readonly schema: z.ZodType };
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
  readonly query: unknown;
  readonly body: unknown;
  /** Lets a writing command record its idempotency outcome in its own transaction. */
  readonly context: IdempotentCommandContext;
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
} as const satisfies Record<string, z.ZodType>;

export const pathParameterSchemaOf = (name: string): z.ZodType =>
  (pathParameterSchemas as Record<string, z.ZodType>)[name] ?? z.string();

export const isWriteOperation = (operation: OperationSpec): boolean => operation.method !== 'get';
