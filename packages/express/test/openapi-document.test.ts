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
