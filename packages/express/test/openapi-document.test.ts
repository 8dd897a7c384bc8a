import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createOpenApiDocument } from '../src/index.js';
import { clientOperations, complianceOperations, managerOperations } from '../src/interface-operations.js';
import { type OperationSpec, pathParameterSchemaOf } from '../src/operation.js';

const document = createOpenApiDocument();

describe('OpenAPI document', () => {
  test('docs/openapi.json is the generated document (regenerate: pnpm --filter @onboarding-kit/express openapi:write)', async () => {
    await expect(`${JSON.stringify(document, null, 2)}\n`).toMatchFileSnapshot('../../../docs/openapi.json');
  });

  const interfaces: [string, string, Record<string, OperationSpec>][] = [
    ['manager', '/manager/v1', managerOperations],
    ['client', '/client/v1', clientOperations],
    ['compliance', '/compliance/v1', complianceOperations],
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
    if (operation.method !== 'get') {
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

describe('a host-shaped document (issue 14 §3)', () => {
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
