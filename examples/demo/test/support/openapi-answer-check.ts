import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/** The parts of an OpenAPI 3.1 document the answer check reads. */
type OpenApiDocument = {
  readonly paths: Record<string, Record<string, OpenApiOperation>>;
  readonly components: { readonly schemas: Record<string, unknown> };
};
export type OpenApiOperation = {
  readonly operationId: string;
  readonly requestBody?: { readonly content: Record<string, { schema: unknown }> };
  readonly parameters?: ReadonlyArray<{ name: string; in: string; schema?: Record<string, unknown> }>;
  readonly responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
};

/** One documented operation: its method, its path template and what the document says of it. */
export type DocumentedOperation = {
  readonly method: string;
  readonly pathTemplate: string;
  readonly operation: OpenApiOperation;
};

const COMPONENTS_ID = 'https://onboarding-kit.invalid/openapi.json';

// ajv-formats is CommonJS with a default export; its ESM shape differs between loaders.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => void;

/**
 * Checks real answers against the document the kit serves: the status must be one the operation
 * documents, and a JSON body must match the schema documented for that status.
 */
export const openApiAnswerCheck = (document: OpenApiDocument) => {
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
  addFormats(ajv);
  ajv.addSchema({ $id: COMPONENTS_ID, components: document.components });
  const compiled = new Map<string, ValidateFunction>();

  const operations: DocumentedOperation[] = Object.entries(document.paths).flatMap(([pathTemplate, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      method: method.toUpperCase(),
      pathTemplate,
      operation,
    })),
  );

  const validatorOf = (operation: OpenApiOperation, status: string): ValidateFunction | null => {
    const cacheKey = `${operation.operationId} ${status}`;
    const cached = compiled.get(cacheKey);
    if (cached) return cached;
    const schema = operation.responses[status]?.content?.['application/json']?.schema;
    if (schema === undefined) return null;
    const absolute = JSON.parse(
      JSON.stringify(schema).replaceAll('"#/components/', `"${COMPONENTS_ID}#/components/`),
    ) as object;
    const validate = ajv.compile(absolute);
    compiled.set(cacheKey, validate);
    return validate;
  };

  /** The problems of one answer (empty when it is as documented). */
  const problemsOf = (
    { operation }: DocumentedOperation,
    answer: { status: number; contentType: string | null; body: unknown },
  ): string[] => {
    const status = String(answer.status);
    if (operation.responses[status] === undefined) {
      return [`status ${status} is not documented for ${operation.operationId}`];
    }
    const validate = validatorOf(operation, status);
    if (validate === null) return [];
    if (!answer.contentType?.startsWith('application/json')) {
      return [
        `${operation.operationId} ${status} answered ${answer.contentType ?? 'no content type'}, not JSON`,
      ];
    }
    if (validate(answer.body)) return [];
    return [
      `${operation.operationId} ${status} body does not match its schema: ${ajv.errorsText(validate.errors)}`,
    ];
  };

  return { operations, problemsOf };
};
