import { createOnboardingKit } from '@onboarding-kit/core';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import express from 'express';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createOpenApiDocument, mountOnboardingKit } from '../src/index.js';
import { interfaceOperations, operationsOf } from '../src/interface-operations.js';
import { type OperationSpec, pathParameterSchemaOf } from '../src/operation.js';

const document = createOpenApiDocument();

describe('OpenAPI document', () => {
  test('docs/openapi.json is the generated document (regenerate: pnpm --filter @onboarding-kit/express openapi:write)', async () => {
    await expect(`${JSON.stringify(document, null, 2)}\n`).toMatchFileSnapshot('../../../docs/openapi.json');
  });

  const interfaces: [string, string, Record<string, OperationSpec>][] = [
    ['manager', '/manager/v1', operationsOf('manager')],
    ['client', '/client/v1', operationsOf('client')],
    ['compliance', '/compliance/v1', operationsOf('compliance')],
  ];
  const documented = interfaces.flatMap(([kind, base, operations]) =>
    Object.entries(operations).map(([id, operation]) => ({ kind, id, operation, base })),
  );

  test.each(documented)('$kind $id is documented with every status it answers', ({ base, operation }) => {
    const path = `${base}${operation.path.replace(/:(\w+)/g, '{$1}')}`;
    const entry = document.paths[path]?.[operation.method] as
      | {
          responses: Record<string, unknown>;
          parameters: { name?: string; $ref?: string }[];
          requestBody?: unknown;
        }
      | undefined;
    expect(entry, `${operation.method} ${path}`).toBeDefined();
    const statuses = Object.keys(entry?.responses ?? {});
    expect(statuses).toEqual(
      expect.arrayContaining([String(operation.success.status), '401', '403', '500', '503']),
    );
    if (operation.requestBody) {
      expect(statuses).toEqual(expect.arrayContaining(['400', '413', '415']));
      expect(entry?.requestBody).toBeDefined();
    }
    if (operation.idempotent) {
      expect(statuses).toEqual(expect.arrayContaining(['409', '422']));
      expect(entry?.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    }
    for (const [, name] of operation.path.matchAll(/:(\w+)/g)) {
      expect(entry?.parameters).toContainEqual(expect.objectContaining({ name, in: 'path', required: true }));
    }
  });

  test.each(documented)(
    '$kind $id: every parameter is documented with the schema its route validates with',
    ({ base, operation }) => {
      const path = `${base}${operation.path.replace(/:(\w+)/g, '{$1}')}`;
      const entry = document.paths[path]?.[operation.method] as {
        parameters: { name?: string; in?: string; schema?: Record<string, unknown> }[];
      };
      const pathParameters = entry.parameters.filter((parameter) => parameter.in === 'path');
      expect(pathParameters.map((parameter) => parameter.name)).toEqual(
        [...operation.path.matchAll(/:(\w+)/g)].map(([, name]) => name),
      );
      for (const parameter of pathParameters) {
        const schema = pathParameterSchemaOf(parameter.name ?? '');
        const { $schema: _ignored, ...expected } = z.toJSONSchema(schema, {
          target: 'draft-2020-12',
          io: 'input',
        });
        expect(parameter.schema).toEqual(expected);
        // Every id of this API is a UUID.
        expect(parameter.schema).toMatchObject({ type: 'string', format: 'uuid' });
      }
      const queryParameters = entry.parameters.filter((parameter) => parameter.in === 'query');
      const query = operation.query
        ? (z.toJSONSchema(operation.query, { target: 'draft-2020-12', io: 'input' }) as {
            properties: Record<string, unknown>;
          })
        : { properties: {} };
      expect(
        Object.fromEntries(queryParameters.map((parameter) => [parameter.name, parameter.schema])),
      ).toEqual(query.properties);
    },
  );

  test('every POST, PUT and DELETE takes an Idempotency-Key, no GET does (decisions §5)', () => {
    for (const [id, operation] of Object.entries(interfaceOperations) as [string, OperationSpec][]) {
      expect(operation.idempotent, id).toBe(operation.method !== 'get');
    }
  });

  test('each operation is declared once: its schemas are the components its answers refer to', () => {
    const schemas = (document.components as { schemas: Record<string, unknown> }).schemas;
    for (const { base, operation } of documented) {
      const entry = document.paths[`${base}${operation.path.replace(/:(\w+)/g, '{$1}')}`]?.[operation.method];
      const success = ((entry?.responses ?? {}) as Record<string, { content: unknown }>)[
        String(operation.success.status)
      ];
      expect(success?.content).toEqual({
        'application/json': { schema: { $ref: `#/components/schemas/${operation.success.component}` } },
      });
      expect(schemas[operation.success.component]).toBeDefined();
      if (operation.requestBody) {
        expect(entry?.requestBody).toMatchObject({
          content: {
            'application/json': {
              schema: { $ref: `#/components/schemas/${operation.requestBody.component}` },
            },
          },
        });
        expect(schemas[operation.requestBody.component]).toBeDefined();
      }
    }
    // The answers and bodies refer to the operations' components and the error body only.
    const declared = new Set([
      'Error',
      ...documented.flatMap(({ operation }) => [
        operation.success.component,
        ...(operation.requestBody ? [operation.requestBody.component] : []),
      ]),
    ]);
    const referenced = JSON.stringify(document.paths).match(/#\/components\/schemas\/[A-Za-z]+/g) ?? [];
    expect(new Set(referenced.map((reference) => reference.split('/').pop()))).toEqual(declared);
  });

  test('every $ref resolves inside the document', () => {
    const text = JSON.stringify(document);
    const references = new Set(
      [...text.matchAll(/"\$ref":"#\/([^"]+)"/g)].map(([, pointer]) => pointer as string),
    );
    expect(references.size).toBeGreaterThan(5);
    for (const pointer of references) {
      const target = pointer
        .split('/')
        .reduce<unknown>((node, segment) => (node as Record<string, unknown>)?.[segment], document);
      expect(target, pointer).toBeDefined();
    }
  });

  test('the API key scheme warns about proxies that drop underscore headers', () => {
    expect(document.security).toEqual([{ ServiceApiKey: [] }]);
    const scheme = (
      document.components.securitySchemes as Record<string, { name: string; description: string }>
    ).ServiceApiKey;
    expect(scheme).toMatchObject({ type: 'apiKey', in: 'header', name: 'SERVICE_API_KEY' });
    expect(scheme?.description).toContain('underscores_in_headers on;');
  });

  test('with a per-manager rate limit, every manager operation documents 429 with Retry-After, and no other does', () => {
    type Responses = Record<string, { description?: string; headers?: Record<string, unknown> }>;
    const responsesOf = (doc: typeof document) =>
      Object.entries(doc.paths).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({
          at: `${method} ${path}`,
          manager: path.startsWith('/manager/'),
          responses: operation.responses as Responses,
        })),
      );
    const limited = responsesOf(createOpenApiDocument({ managerRateLimit: true }));
    const managerOperations = limited.filter((operation) => operation.manager);
    expect(managerOperations.length).toBeGreaterThan(20);
    for (const { at, responses } of managerOperations) {
      expect(responses['429']?.description, at).toContain('TOO_MANY_REQUESTS');
      expect(responses['429']?.headers, at).toHaveProperty('Retry-After');
    }
    // The other interfaces, and the document without the limit, are as before.
    const plain = new Map(responsesOf(document).map((operation) => [operation.at, operation.responses]));
    for (const { at, manager, responses } of limited) {
      if (!manager) expect(responses, at).toEqual(plain.get(at));
    }
    expect(responsesOf(document).some(({ responses, manager }) => manager && !responses['429'])).toBe(true);

    // The mount documents what it mounts: with a limiter, the 429s; without, none of them.
    const kit = createOnboardingKit(createMemoryAdapters());
    const consume = async () => undefined;
    const mounted = mountOnboardingKit(express(), kit, { managerRateLimit: { consume } }).openApiDocument;
    if (mounted === null) expect.fail('a document is mounted');
    expect(
      responsesOf(mounted)
        .filter(({ manager }) => manager)
        .every(({ responses }) => responses['429']),
    ).toBe(true);
  });

  test('mount paths are configurable', () => {
    const custom = createOpenApiDocument({
      basePaths: { manager: '/api/managers' },
      serverUrl: 'https://api.example.com',
    });
    expect(Object.keys(custom.paths)).toContain('/api/managers/clients/individuals');
    expect(Object.keys(custom.paths)).toContain('/client/v1/uploads');
    expect(custom.servers).toEqual([{ url: 'https://api.example.com' }]);
  });
});

describe('the figures the document states are the kit’s options', () => {
  const text = (value: unknown) => JSON.stringify(value);
  const operationText = (doc: ReturnType<typeof createOpenApiDocument>, path: string, method: string) =>
    text(doc.paths[path]?.[method]);

  test('a kit with non-default options: its mounted document states those, not the defaults', () => {
    const kit = createOnboardingKit({
      ...createMemoryAdapters(),
      options: {
        uploadUrlTtlMs: 60_000,
        downloadUrlTtlMs: 5 * 60_000,
        temporaryFileTtlMs: 2 * 60 * 60_000,
        maxDocumentBytes: 5 * 1_048_576,
        idempotencyRecordTtlMs: 48 * 60 * 60_000,
        idempotencyMaxRecordsPerOwner: 250,
        webhookRetryWindowMs: 7 * 24 * 60 * 60_000,
        webhookSecretOverlapMs: 90 * 60_000,
        maxWebhookEndpointsPerManager: 3,
        webhookAllowPrivateNetworks: true,
      },
    });
    const { openApiDocument } = mountOnboardingKit(express(), kit, { prefix: '/kit' });
    if (openApiDocument === null) throw new Error('expected a document');
    const upload = operationText(openApiDocument, '/kit/manager/v1/uploads/request-batch-upload', 'post');
    expect(upload).toContain('valid 1 minute');
    expect(upload).toContain('temporary storage for 2 hours');
    expect(upload).toContain('over 5 MiB');
    expect(upload).not.toContain('15 minutes');
    expect(operationText(openApiDocument, '/kit/manager/v1/clients/individuals', 'post')).toContain(
      'each 1 byte to 5 MiB',
    );
    const download = operationText(
      openApiDocument,
      '/kit/manager/v1/documents/request-batch-download',
      'post',
    );
    expect(download).toContain('valid 5 minutes');
    const webhooks = operationText(openApiDocument, '/kit/manager/v1/webhook-endpoints', 'post');
    expect(webhooks).toContain('backoff for 7 days');
    expect(webhooks).toContain('at most 3 endpoints');
    expect(webhooks).toContain('also accepts loopback, private and link-local addresses');
    expect(
      operationText(openApiDocument, '/kit/manager/v1/webhook-endpoints/{endpointId}/rotate-secret', 'post'),
    ).toContain('default 90 minutes');
    const key = text((openApiDocument.components as { parameters: unknown }).parameters);
    expect(key).toContain('for 2 days');
    expect(key).toContain('at most 250 live keys');
    expect(key).not.toContain('24 hours');
  });

  test('with the defaults, and with no bound on live keys', () => {
    const upload = operationText(document, '/manager/v1/uploads/request-batch-upload', 'post');
    expect(upload).toContain('valid 15 minutes');
    expect(upload).toContain('temporary storage for 24 hours');
    expect(upload).toContain('over 25 MiB');
    expect(text(document.paths['/manager/v1/webhook-endpoints']?.post)).toContain(
      '`https` to a public host only',
    );
    expect(text(document.components)).toContain('at most 10,000 live keys');
    const unbounded = createOpenApiDocument({ kitOptions: { idempotencyMaxRecordsPerOwner: null } });
    expect(text(unbounded.components)).not.toContain('live keys');
  });

  test('every request body states the body limit the routers apply', () => {
    for (const methods of Object.values(document.paths)) {
      for (const operation of Object.values(methods)) {
        if (operation.requestBody === undefined) continue;
        expect(operation.requestBody).toMatchObject({ description: 'UTF-8 JSON, at most 1 MiB' });
      }
    }
  });
});

describe('a host-shaped document', () => {
  const hostError = {
    type: 'object',
    required: ['error'],
    properties: { error: { type: 'object', required: ['code', 'message', 'requestId'] } },
  };
  const hostDocument = createOpenApiDocument({
    interfaces: ['manager', 'compliance'],
    basePaths: { manager: '/onboarding/manager/v1', compliance: '/onboarding/compliance/v1' },
    securitySchemes: { BearerSession: { type: 'http', scheme: 'bearer' } },
    errorSchema: hostError,
    componentPrefix: 'Onboarding',
  });

  /** Every `$ref` of the document, as written. */
  const referencesOf = (value: unknown): string[] =>
    typeof value !== 'object' || value === null
      ? []
      : Object.entries(value).flatMap(([key, inner]) =>
          key === '$ref' && typeof inner === 'string' ? [inner] : referencesOf(inner),
        );

  test('only the mounted interfaces, at their mount paths', () => {
    const paths = Object.keys(hostDocument.paths);
    expect(paths.every((path) => /^\/onboarding\/(manager|compliance)\/v1\//.test(path))).toBe(true);
    expect(paths.some((path) => path.startsWith('/onboarding/compliance/v1/'))).toBe(true);
    expect(hostDocument.tags.map((tag) => tag.name)).toEqual(['manager', 'compliance']);
  });

  test('only the host’s security scheme', () => {
    expect(hostDocument.security).toEqual([{ BearerSession: [] }]);
    expect((hostDocument.components as { securitySchemes: object }).securitySchemes).toEqual({
      BearerSession: { type: 'http', scheme: 'bearer' },
    });
    expect(JSON.stringify(hostDocument)).not.toContain('ServiceApiKey');
  });

  test('every error answer is the host’s error body', () => {
    const schemas = (hostDocument.components as { schemas: Record<string, unknown> }).schemas;
    expect(schemas.OnboardingError).toEqual(hostError);
    for (const methods of Object.values(hostDocument.paths)) {
      for (const operation of Object.values(methods)) {
        for (const [status, response] of Object.entries(operation.responses as Record<string, JsonLike>)) {
          if (Number(status) < 400) continue;
          expect(response.content).toEqual({
            'application/json': { schema: { $ref: '#/components/schemas/OnboardingError' } },
          });
        }
      }
    }
  });

  test('every component is prefixed and every reference resolves', () => {
    const components = hostDocument.components as Record<string, Record<string, unknown>>;
    for (const section of ['schemas', 'parameters', 'headers']) {
      expect(Object.keys(components[section] ?? {}).every((name) => name.startsWith('Onboarding'))).toBe(
        true,
      );
    }
    const references = referencesOf(hostDocument);
    expect(references.length).toBeGreaterThan(20);
    for (const reference of references) {
      const [, section, name] = /^#\/components\/([^/]+)\/(.+)$/.exec(reference) ?? [];
      expect(components[section ?? '']?.[name ?? ''], reference).toBeDefined();
    }
  });
});

type JsonLike = { readonly content?: unknown };
