import {
  defaultOnboardingKitOptions,
  type ErrorCode,
  errorCodes,
  type OnboardingKitOptions,
  withReferenceLists,
} from '@onboarding-kit/core';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '@onboarding-kit/core/adapter';
import {
  createOnboardingPayloadSchemas,
  defaultOnboardingPayloadSchemas,
  errorBodySchema,
} from '@onboarding-kit/core/schemas';
import { z } from 'zod';
import { API_KEY_HEADER, type PrincipalKind } from './authentication.js';
import { IF_MATCH_HEADER } from './client-etag.js';
import { errorStatusByCode } from './http-error.js';
import { IDEMPOTENCY_KEY_HEADER } from './idempotency-claim.js';
import { IDEMPOTENT_REPLAYED_HEADER } from './idempotency-middleware.js';
import { interfaceOperations, operationsOf } from './interface-operations.js';
import { MAX_JSON_BODY_BYTES } from './json-body.js';
import {
  type DocumentedKitOptions,
  type OperationSpec,
  type OptionText,
  pathParameterSchemaOf,
} from './operation.js';
import { bytesLabel, countLabel, durationLabel } from './quantity-labels.js';

type JsonObject = { [key: string]: unknown };

/** An OpenAPI 3.1 document, as plain JSON. */
export type OpenApiDocument = {
  readonly openapi: '3.1.0';
  readonly info: JsonObject;
  readonly servers: readonly JsonObject[];
  readonly tags: readonly JsonObject[];
  readonly security: readonly JsonObject[];
  readonly paths: Readonly<Record<string, Record<string, JsonObject>>>;
  readonly components: JsonObject;
};

export type InterfaceBasePaths = {
  readonly manager: string;
  readonly client: string;
  readonly compliance: string;
};

/** Where the demo mounts the three interfaces (decisions §1). */
export const defaultInterfaceBasePaths: InterfaceBasePaths = {
  manager: '/manager/v1',
  client: '/client/v1',
  compliance: '/compliance/v1',
};

export type OpenApiDocumentOptions = {
  /** Where the host mounts each router (default: the demo's paths). */
  readonly basePaths?: Partial<InterfaceBasePaths>;
  /** The server URL the paths are relative to (default `/`: the origin serving the document). */
  readonly serverUrl?: string;
  /** The interfaces the host mounts (default all three): no other appears in the document. */
  readonly interfaces?: readonly PrincipalKind[];
  /**
   * The security schemes every operation requires, by name (default: `ServiceApiKey`, the
   * `SERVICE_API_KEY` header). A host with its own sessions declares its own, e.g.
   * `{ BearerSession: { type: 'http', scheme: 'bearer' } }`.
   */
  readonly securitySchemes?: Readonly<Record<string, JsonObject>>;
  /**
   * The JSON Schema of the host's error body, when the host formats errors itself (`formatError`):
   * it becomes the `Error` component every error answer refers to. Default: the kit's
   * `{ code, reason, parameterErrors }`, each status listing its codes.
   */
  readonly errorSchema?: JsonObject;
  /** The media type of the host's error answers (default `application/json`), with `errorSchema`. */
  readonly errorContentType?: string;
  /**
   * Prefixed to every component name (`Kit` → `KitClient`, `KitError`, `KitIdempotencyKey`) and to
   * the references to them, so the document's components merge into the host's without colliding.
   */
  readonly componentPrefix?: string;
  /**
   * The manager routes are behind a per-manager request rate limit (the routers' `managerRateLimit`):
   * every manager operation then documents 429 `TOO_MANY_REQUESTS` with `Retry-After`.
   * `mountOnboardingKit` sets it when given `managerRateLimit`. Default false.
   */
  readonly managerRateLimit?: boolean;
  /** `info.title` (default `onboarding-kit`). */
  readonly title?: string;
  /**
   * The kit's options (`kit.options`, or what the host passed to `createOnboardingKit`): the link
   * lifetimes, size limits and quotas the document states are these. Default: the kit's defaults.
   */
  readonly kitOptions?: OnboardingKitOptions;
};

/**
 * The payload schemas of the kit's reference lists. The registry names those built with the default
 * lists; the document shows the same schemas built with the kit's, so its enums and examples are
 * what this kit's validation accepts. Each list's values are a component of their own.
 */
const listBoundSchemas = (kitOptions: OnboardingKitOptions | undefined) => {
  const payloads = createOnboardingPayloadSchemas(withReferenceLists(kitOptions?.referenceLists));
  const replacements = new Map<z.ZodType, z.ZodType>([
    [defaultOnboardingPayloadSchemas.individualPayload, payloads.individualPayload],
    [defaultOnboardingPayloadSchemas.entityPayload, payloads.entityPayload],
  ]);
  const listComponents = Object.fromEntries(
    Object.entries(payloads.listValues).map(([name, schema]): [string, z.ZodType] => [
      `${name.charAt(0).toUpperCase()}${name.slice(1)}`,
      schema,
    ]),
  );
  return { replacements, listComponents };
};
type ListBoundSchemas = ReturnType<typeof listBoundSchemas>;

/**
 * The named wire shapes of every operation: request bodies as accepted (zod input), responses as
 * sent (zod output), and the error body. Components are these, nothing declared a second time.
 */
const namedSchemas = (io: 'input' | 'output', lists: ListBoundSchemas): Record<string, z.ZodType> => {
  const named: Record<string, z.ZodType> =
    io === 'output' ? { Error: errorBodySchema } : { ...lists.listComponents };
  for (const operation of Object.values(interfaceOperations) as OperationSpec[]) {
    const shape = io === 'input' ? operation.requestBody : operation.success;
    if (shape === undefined) continue;
    const schema = lists.replacements.get(shape.schema) ?? shape.schema;
    if (named[shape.component] !== undefined && named[shape.component] !== schema) {
      throw new Error(`OpenAPI: two different schemas are named ${shape.component}`);
    }
    named[shape.component] = schema;
  }
  return named;
};

/** The first example a request body's schema carries (`.meta({ examples })`), for "Try it out". */
const exampleOf = (schema: z.ZodType | undefined): unknown => {
  const examples = schema?.meta()?.examples;
  return Array.isArray(examples) ? examples[0] : undefined;
};

const COMPONENT_SCHEMAS = '#/components/schemas/';
/** Where zod puts schemas that carry an `id` but were not named in the registry. */
const SHARED_DEFINITIONS = `${COMPONENT_SCHEMAS}__shared#/$defs/`;

/** Component schemas of one registry, with zod's shared definitions hoisted beside them. */
const componentSchemas = (
  schemas: Record<string, z.ZodType>,
  io: 'input' | 'output',
): Record<string, JsonObject> => {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const generated = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    uri: (id) => `${COMPONENT_SCHEMAS}${id}`,
  });
  const { __shared, ...named } = JSON.parse(
    JSON.stringify(generated.schemas).replaceAll(SHARED_DEFINITIONS, COMPONENT_SCHEMAS),
  ) as Record<string, JsonObject>;
  const hoisted = { ...named, ...((__shared?.$defs ?? {}) as Record<string, JsonObject>) };
  return Object.fromEntries(
    Object.entries(hoisted).map(([id, { $schema: _schema, $id: _id, ...schema }]) => [id, schema]),
  );
};

const mergeComponents = (...groups: readonly Record<string, JsonObject>[]): Record<string, JsonObject> => {
  const merged: Record<string, JsonObject> = {};
  for (const group of groups) {
    for (const [id, schema] of Object.entries(group)) {
      const existing = merged[id];
      if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(schema)) {
        throw new Error(`OpenAPI: two different schemas are named ${id}`);
      }
      merged[id] = schema;
    }
  }
  return Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b)));
};

const componentReference = (component: string): JsonObject => ({ $ref: `${COMPONENT_SCHEMAS}${component}` });

const inlineSchema = (schema: z.ZodType): JsonObject => {
  const { $schema: _schema, ...inline } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
  }) as JsonObject;
  return inline;
};

/** The refusals every route of this shape can answer, besides its own. */
const sharedRefusals = (operation: OperationSpec): ErrorCode[] => [
  'UNAUTHORIZED',
  'FORBIDDEN',
  'INTERNAL',
  'STORAGE_UNAVAILABLE',
  ...(operation.requestBody
    ? ([
        'VALIDATION_FAILED',
        'MALFORMED_JSON',
        'REQUEST_TIMEOUT',
        'PAYLOAD_TOO_LARGE',
        'UNSUPPORTED_MEDIA_TYPE',
      ] as const)
    : []),
  ...(operation.query ? (['VALIDATION_FAILED'] as const) : []),
  // A path parameter whose percent-encoding is not UTF-8 is refused before the route runs.
  ...(operation.path.includes(':') ? (['VALIDATION_FAILED'] as const) : []),
  ...(operation.ifMatch ? (['VALIDATION_FAILED', 'CLIENT_CHANGED'] as const) : []),
  ...(operation.idempotent
    ? ([
        'VALIDATION_FAILED',
        'IDEMPOTENCY_REQUEST_IN_PROGRESS',
        'IDEMPOTENCY_KEY_REUSED',
        'TOO_MANY_REQUESTS',
      ] as const)
    : []),
];

const errorResponses = (
  operation: OperationSpec,
  hostRefusals: readonly ErrorCode[],
): Record<string, JsonObject> => {
  const codes = new Set<ErrorCode>([...sharedRefusals(operation), ...operation.refusals, ...hostRefusals]);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodes) {
    if (!codes.has(code)) continue;
    const status = errorStatusByCode[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus.entries()].map(([status, statusCodes]) => [
      String(status),
      {
        description: statusCodes.join(', '),
        ...(statusCodes.includes('IDEMPOTENCY_REQUEST_IN_PROGRESS') ||
        statusCodes.includes('TOO_MANY_REQUESTS')
          ? {
              headers: {
                'Retry-After': {
                  description: 'Seconds to wait before retrying',
                  schema: { type: 'integer' },
                },
              },
            }
          : {}),
        content: {
          'application/json': {
            schema: {
              allOf: [
                { $ref: `${COMPONENT_SCHEMAS}Error` },
                { type: 'object', properties: { code: { enum: statusCodes } } },
              ],
            },
          },
        },
      },
    ]),
  );
};

const openApiPath = (expressPath: string): string => expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const parametersOf = (operation: OperationSpec): JsonObject[] => {
  const pathParameters = [...operation.path.matchAll(/:([A-Za-z0-9_]+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: inlineSchema(pathParameterSchemaOf(name ?? '')),
  }));
  const query = operation.query
    ? (z.toJSONSchema(operation.query, { target: 'draft-2020-12', io: 'input' }) as {
        properties?: Record<string, JsonObject>;
        required?: string[];
      })
    : {};
  const queryParameters = Object.entries(query.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: query.required?.includes(name) ?? false,
    schema,
  }));
  const headers = [
    ...(operation.idempotent ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
    ...(operation.ifMatch ? [{ $ref: '#/components/parameters/IfMatch' }] : []),
  ];
  return [...pathParameters, ...queryParameters, ...headers];
};

const textOf = (text: OptionText, options: DocumentedKitOptions): string =>
  typeof text === 'string' ? text : text(options);

const operationObject = (
  kind: PrincipalKind,
  id: string,
  operation: OperationSpec,
  options: DocumentedKitOptions,
  requestSchemas: Record<string, z.ZodType>,
  /** What the host's own middleware in front of the route may answer (a rate limit). */
  hostRefusals: readonly ErrorCode[],
): JsonObject => ({
  operationId: `${kind}${id.charAt(0).toUpperCase()}${id.slice(1)}`,
  tags: [kind],
  summary: operation.summary,
  ...(operation.description ? { description: textOf(operation.description, options) } : {}),
  parameters: parametersOf(operation),
  ...(operation.requestBody
    ? {
        requestBody: {
          required: operation.requestBody.optional !== true,
          description: `UTF-8 JSON, at most ${bytesLabel(MAX_JSON_BODY_BYTES)}`,
          content: {
            'application/json': {
              schema: componentReference(operation.requestBody.component),
              example: (operation.requestBody.example ?? ((example: unknown) => example))(
                exampleOf(requestSchemas[operation.requestBody.component]),
              ),
            },
          },
        },
      }
    : {}),
  responses: {
    [String(operation.success.status)]: {
      description: operation.success.description,
      ...(operation.idempotent
        ? { headers: { [IDEMPOTENT_REPLAYED_HEADER]: { $ref: '#/components/headers/IdempotentReplayed' } } }
        : {}),
      ...(operation.clientEtag ? { headers: { ETag: { $ref: '#/components/headers/ClientETag' } } } : {}),
      content: { 'application/json': { schema: componentReference(operation.success.component) } },
    },
    ...errorResponses(operation, hostRefusals),
  },
});

const interfacePaths = (
  kind: PrincipalKind,
  basePath: string,
  options: DocumentedKitOptions,
  requestSchemas: Record<string, z.ZodType>,
  hostRefusals: readonly ErrorCode[],
): [string, string, JsonObject][] =>
  (Object.entries(operationsOf(kind)) as [string, OperationSpec][]).map(([id, operation]) => [
    `${basePath}${openApiPath(operation.path)}`,
    operation.method,
    operationObject(kind, id, operation, options, requestSchemas, hostRefusals),
  ]);

const API_KEY_DESCRIPTION = [
  'The API key of a manager, a client or the compliance team, in the `SERVICE_API_KEY` header',
  '(header names are case-insensitive). A missing or unknown key is 401; a key of another',
  'interface (a client key on the manager interface) is 403.',
  '',
  'The header name contains underscores: nginx drops such headers unless `underscores_in_headers on;`',
  'is set, and some other proxies and load balancers drop them too. Check every hop in front of the service.',
].join('\n');

const IF_MATCH_DESCRIPTION = [
  'The `ETag` of GET /clients/{clientId} as the caller read it: the decision applies only to the client',
  "as it was then. Compared with the client locked in the decision's own transaction; a client that",
  "changed since (a resubmission, another reviewer's move, a screening result, an assignment) is 412",
  'CLIENT_CHANGED and nothing is done, nor recorded under the Idempotency-Key. `*` or no header: no',
  'comparison. One strong entity tag only (a weak tag or a list is 400).',
].join('\n');

const idempotencyKeyDescription = (options: DocumentedKitOptions): string =>
  [
    `Makes a POST, PUT or DELETE safe to retry: 1..${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters (a quoted`,
    'structured-field string is accepted and unquoted), one value only. The first request runs; a',
    'repeat with the same body replays its status and body with `Idempotent-Replayed: true`; a',
    'repeat with another body is 422; a repeat while the first runs is 409 with `Retry-After: 1`.',
    `Recorded: 2xx, 404 and 409 INVALID_STATUS, for ${durationLabel(options.idempotencyRecordTtlMs)}. Other answers (400, 401, 403, 412, 413,`,
    '415, 5xx) release the key, so a corrected retry runs anew. Scoped to the caller, the method and',
    'the route.',
    ...(options.idempotencyMaxRecordsPerOwner === null
      ? []
      : [
          `One caller holds at most ${countLabel(options.idempotencyMaxRecordsPerOwner)} live keys: a new key beyond`,
          'that is 429 TOO_MANY_REQUESTS with `Retry-After` (seconds until the oldest expires); replays',
          'are never refused.',
        ]),
  ].join('\n');

/**
 * The OpenAPI 3.1 document of the three interfaces, generated from the core zod schemas and the
 * same route table the routers mount. `docs/openapi.json` is this document with the defaults.
 */
export const createOpenApiDocument = (options: OpenApiDocumentOptions = {}): OpenApiDocument => {
  const document = kitDocument(options);
  const hostErrors =
    options.errorSchema === undefined
      ? document
      : withHostErrorSchema(document, options.errorSchema, options.errorContentType ?? 'application/json');
  const secured =
    options.securitySchemes === undefined
      ? hostErrors
      : withSecuritySchemes(hostErrors, options.securitySchemes);
  return options.componentPrefix === undefined
    ? secured
    : withComponentPrefix(secured, options.componentPrefix);
};

/** Every interface the host mounts, with the kit's error body and its API key scheme. */
const kitDocument = (options: OpenApiDocumentOptions): OpenApiDocument => {
  const { referenceLists: _lists, ...configured } = options.kitOptions ?? {};
  const kitOptions: DocumentedKitOptions = { ...defaultOnboardingKitOptions, ...configured };
  const lists = listBoundSchemas(options.kitOptions);
  const requestSchemas = namedSchemas('input', lists);
  const basePaths = { ...defaultInterfaceBasePaths, ...options.basePaths };
  const mounted = new Set<PrincipalKind>(options.interfaces ?? ['manager', 'client', 'compliance']);
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const [path, method, operation] of [
    ...(['manager', 'client', 'compliance'] as const)
      .filter((kind) => mounted.has(kind))
      .flatMap((kind) =>
        interfacePaths(
          kind,
          basePaths[kind],
          kitOptions,
          requestSchemas,
          // The per-manager rate limit runs after authentication, on the manager interface only.
          kind === 'manager' && options.managerRateLimit === true ? ['TOO_MANY_REQUESTS'] : [],
        ),
      ),
  ]) {
    paths[path] = { ...paths[path], [method]: operation };
  }
  const tags = [
    { name: 'manager', description: `Manager interface, at ${basePaths.manager}` },
    { name: 'client', description: `Client interface, at ${basePaths.client}` },
    { name: 'compliance', description: `Compliance review, at ${basePaths.compliance}` },
  ].filter((tag) => mounted.has(tag.name as PrincipalKind));
  return {
    openapi: '3.1.0',
    info: {
      title: options.title ?? 'onboarding-kit',
      version: '1.0.0',
      description:
        'Client onboarding (KYC/KYB), presigned document upload and download, idempotent critical calls ' +
        'and preset fees. Every failure answers `{ code, reason, parameterErrors }`.',
    },
    servers: [{ url: options.serverUrl ?? '/' }],
    tags,
    security: [{ ServiceApiKey: [] }],
    paths,
    components: {
      schemas: mergeComponents(
        componentSchemas(requestSchemas, 'input'),
        componentSchemas(namedSchemas('output', lists), 'output'),
      ),
      securitySchemes: {
        ServiceApiKey: {
          type: 'apiKey',
          in: 'header',
          name: API_KEY_HEADER,
          description: API_KEY_DESCRIPTION,
        },
      },
      parameters: {
        IdempotencyKey: {
          name: IDEMPOTENCY_KEY_HEADER,
          in: 'header',
          required: false,
          description: idempotencyKeyDescription(kitOptions),
          schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
        },
        IfMatch: {
          name: IF_MATCH_HEADER,
          in: 'header',
          required: false,
          description: IF_MATCH_DESCRIPTION,
          schema: { type: 'string' },
        },
      },
      headers: {
        IdempotentReplayed: {
          description:
            'Present, `true`, when this answer is the replay of an earlier request with the same key',
          schema: { type: 'string', enum: ['true'] },
        },
        ClientETag: {
          description:
            "The client's version as a strong entity tag: send it back in `If-Match` on a decision on this " +
            'client (a compliance move, a delete) so that it applies only to the client as read here',
          schema: { type: 'string' },
        },
      },
    },
  };
};

/** The host's error body in place of the kit's: every error answer refers to the `Error` component. */
const withHostErrorSchema = (
  document: OpenApiDocument,
  errorSchema: JsonObject,
  contentType: string,
): OpenApiDocument => {
  const paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, methods]) => [
      path,
      Object.fromEntries(
        Object.entries(methods).map(([method, operation]) => {
          const responses = operation.responses as Record<string, JsonObject>;
          return [
            method,
            {
              ...operation,
              responses: Object.fromEntries(
                Object.entries(responses).map(([status, response]) => [
                  status,
                  Number(status) >= 400
                    ? {
                        ...response,
                        content: { [contentType]: { schema: { $ref: `${COMPONENT_SCHEMAS}Error` } } },
                      }
                    : response,
                ]),
              ),
            },
          ];
        }),
      ),
    ]),
  );
  const components = document.components as { schemas: Record<string, JsonObject> };
  const info = {
    ...document.info,
    description: String(document.info.description).replace(/ Every failure answers.*$/, ''),
  };
  return {
    ...document,
    info,
    paths,
    components: { ...document.components, schemas: { ...components.schemas, Error: errorSchema } },
  };
};

const withSecuritySchemes = (
  document: OpenApiDocument,
  schemes: Readonly<Record<string, JsonObject>>,
): OpenApiDocument => ({
  ...document,
  security: Object.keys(schemes).map((name) => ({ [name]: [] })),
  components: { ...document.components, securitySchemes: { ...schemes } },
});

/** Renames the schemas, parameters and headers components, and every reference to them. */
const withComponentPrefix = (document: OpenApiDocument, prefix: string): OpenApiDocument => {
  const sections = ['schemas', 'parameters', 'headers'] as const;
  const renamed = JSON.parse(
    JSON.stringify(document).replace(
      /"#\/components\/(schemas|parameters|headers)\/([^"/]+)"/g,
      (_match, section: string, name: string) => `"#/components/${section}/${prefix}${name}"`,
    ),
  ) as OpenApiDocument & { components: Record<string, Record<string, unknown>> };
  const components = { ...renamed.components };
  for (const section of sections) {
    const entries = components[section];
    if (entries !== undefined) {
      components[section] = Object.fromEntries(
        Object.entries(entries).map(([name, value]) => [`${prefix}${name}`, value]),
      );
    }
  }
  return { ...renamed, components };
};
