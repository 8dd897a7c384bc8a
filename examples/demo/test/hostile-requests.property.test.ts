import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { demoIdentities, exampleEntityPayload, exampleIndividualPayload } from '@onboarding-kit/core';
import { hasUnstorableCharacter, UNSTORABLE_TEXT_MESSAGE } from '@onboarding-kit/core/adapter';
import { errorBodySchema } from '@onboarding-kit/core/schemas';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDemoDatabase } from './support/demo-database.js';
import { attachmentName } from './support/demo-http.js';
import { type DocumentedOperation, openApiAnswerCheck } from './support/openapi-answer-check.js';
import { percentEncodeBytes, percentEncodeUtf8, type RawAnswer, rawCaller } from './support/raw-http.js';
import { startTestDemo, type TestDemo } from './support/test-demo.js';

/**
 * The proof that attack classes are closed, not instances: generated valid and hostile
 * requests against every route of the demo, on memory and on PostgreSQL. Whatever is sent, the
 * answer is never a 5xx, its status is one the served OpenAPI document lists for the operation,
 * its body matches the documented schema (every error the documented error body), and a valid
 * request succeeds. docs/reliability.md records the classes and the case counts.
 */

const RUNS = {
  anyRequest: 400,
  textFields: 150,
  hostileFilenames: 100,
  validFilenames: 40,
  signedLinks: 150,
  craftedCursors: 150,
} as const;

const keys = {
  managerA: demoIdentities.managerA.apiKey,
  managerB: demoIdentities.managerB.apiKey,
  clientA1: demoIdentities.clientA1.apiKey,
  compliance: demoIdentities.compliance.apiKey,
} as const;
const clientA1Id = demoIdentities.clientA1.principal.clientId;

// --- generators --------------------------------------------------------------------------------

/** Text of every Unicode category, lone surrogates included (fast-check's "binary" unit). */
const anyText = (maxLength = 40) => fc.string({ unit: 'binary', maxLength });

/** Printable text a person could type in a name: letters, marks, digits, punctuation, symbols. */
const TYPEABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]+(?: [\p{L}\p{M}\p{N}\p{P}\p{S}]+)*$/u;
const typeableText = (maxLength = 60) =>
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength })
    .map((text) => text.normalize('NFC').trim().replace(/\s+/gu, ' '))
    .filter((text) => text.length > 0 && text.length <= 1000 && TYPEABLE.test(text));

/** A path segment: a real id, a random UUID, any text, any bytes, or a classic trick. */
const pathSegment = (realIds: readonly string[]) =>
  fc.oneof(
    fc.constantFrom(...realIds),
    fc.uuid(),
    anyText(60)
      .filter((text) => text.length > 0)
      .map(percentEncodeUtf8),
    fc.uint8Array({ minLength: 1, maxLength: 40 }).map(percentEncodeBytes),
    fc.constantFrom('%', '%zz', '..', '%2e%2e', '%2F', '%00', '%C0%AF', '%ED%A0%80', 'a'.repeat(5000)),
  );

/** One element of a crafted cursor tuple: instants of every shape and range, ids, sequence numbers, any JSON. */
const cursorElement = fc.oneof(
  fc
    .date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true })
    .map((d) => d.toISOString()),
  fc.date({ noInvalidDate: true }).map((d) => d.toString()),
  fc.constantFrom(
    '2026-02-30T08:00:00.000Z',
    '0000-01-01T00:00:00.000Z',
    '+275760-09-13T00:00:00.000Z',
    'Tue Nov 24 2026',
    '2026',
    '9223372036854775807',
    '9223372036854775808',
    '1e3',
    '-1',
    '01',
  ),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
  fc.uuid(),
  fc.uuid().map((id) => id.toUpperCase()),
  fc.jsonValue({ maxDepth: 1 }),
);

/** A list cursor an outsider could craft: a base64url JSON tuple of any elements, or the old `e` text form. */
const craftedCursor = fc.oneof(
  fc
    .array(cursorElement, { maxLength: 3 })
    .map((elements) => Buffer.from(JSON.stringify(elements)).toString('base64url')),
  fc
    .oneof(fc.bigInt({ min: 0n, max: 2n ** 70n }).map(String), anyText(25))
    .map((position) => Buffer.from(`e${position}`).toString('base64url')),
);

const queryString = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        'status',
        'clientType',
        'limit',
        'cursor',
        'after',
        'status[a]',
        'limit[]',
        'other',
        '__proto__',
      ),
      fc.oneof(
        fc.constantFrom('VERIFIED', 'ENTITY', '1', '100', '101', '0', '-1', '1e3', 'NaN', ''),
        anyText(30),
        fc.uint8Array({ maxLength: 20 }).map((bytes) => Buffer.from(bytes).toString('base64url')),
        craftedCursor,
      ),
    ),
    { maxLength: 4 },
  )
  .map((pairs) =>
    pairs.length === 0
      ? ''
      : `?${pairs.map(([name, value]) => `${name}=${percentEncodeUtf8(value)}`).join('&')}`,
  );

/** Header values Node can put on the wire (visible ASCII, spaces and Latin-1 bytes; no DEL). */
const headerText = (maxLength = 300) =>
  fc.string({
    unit: fc
      .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff }))
      .map((code) => String.fromCharCode(code)),
    maxLength,
  });

const apiKeyHeader = fc.oneof(
  fc.constantFrom(...Object.values(keys)).map((key) => ({ SERVICE_API_KEY: key })),
  fc.constant({}),
  headerText(80).map((key) => ({ SERVICE_API_KEY: key })),
);

const idempotencyHeader = fc.oneof(
  fc.constant({}),
  fc.uuid().map((key) => ({ 'Idempotency-Key': key })),
  headerText(300).map((key) => ({ 'Idempotency-Key': key })),
);

/** A JSON value at a random place inside `base`, or an unknown key added there. */
const mutatedJson = (base: unknown) =>
  fc
    .tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.jsonValue({ maxDepth: 3 }), fc.boolean())
    .map(([where, replacement, addKey]) => {
      const copy = structuredClone(base) as Record<string, unknown>;
      const containers: Array<Record<string, unknown>> = [];
      const walk = (value: unknown) => {
        if (typeof value === 'object' && value !== null) {
          containers.push(value as Record<string, unknown>);
          for (const child of Object.values(value)) walk(child);
        }
      };
      walk(copy);
      const target = containers[Math.floor(where * containers.length)] ?? copy;
      const names = Object.keys(target);
      const name =
        addKey || names.length === 0 ? `unexpected${names.length}` : names[Math.floor(where * names.length)];
      target[name as string] = replacement;
      return copy;
    });

const exampleBodyOf = (operationId: string): unknown => {
  if (/Individual/.test(operationId)) return exampleIndividualPayload();
  if (/Entity/.test(operationId)) return exampleEntityPayload();
  if (/Upload/.test(operationId)) return { filenames: ['passport.pdf'] };
  if (/Download/.test(operationId)) return { filenames: [`${randomUUID()}_passport.pdf`] };
  if (/Resubmission/.test(operationId)) return { reason: 'The passport scan is blurred' };
  return {};
};

type BodyPlan = { readonly headers: Record<string, string>; readonly bytes: Uint8Array | undefined };

const jsonBytes = (value: unknown) => new Uint8Array(Buffer.from(JSON.stringify(value), 'utf8'));

/** What to send as a body: none, the example, a mutated example, any JSON, broken bytes, odd encodings. */
const bodyPlan = (operation: DocumentedOperation): fc.Arbitrary<BodyPlan> => {
  if (operation.method === 'GET') return fc.constant({ headers: {}, bytes: undefined });
  const example = exampleBodyOf(operation.operation.operationId);
  const json = { 'Content-Type': 'application/json' };
  return fc.oneof(
    fc.constant({ headers: {}, bytes: undefined }),
    fc.constant({ headers: json, bytes: jsonBytes(example) }),
    mutatedJson(example).map((value) => ({ headers: json, bytes: jsonBytes(value) })),
    fc.jsonValue({ maxDepth: 4 }).map((value) => ({ headers: json, bytes: jsonBytes(value) })),
    fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ headers: json, bytes })),
    fc
      .constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/json; charset=latin1',
        'application/json; charset=utf-16',
        'application/merge-patch+json',
      )
      .map((type) => ({ headers: { 'Content-Type': type }, bytes: jsonBytes(example) })),
    fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-unknown', 'gzip, gzip').chain((encoding) =>
      fc.oneof(
        fc.constant({ headers: { ...json, 'Content-Encoding': encoding }, bytes: jsonBytes(example) }),
        fc.constant({
          headers: { ...json, 'Content-Encoding': encoding },
          bytes: new Uint8Array(gzipSync(JSON.stringify(example))),
        }),
      ),
    ),
  );
};

// --- the stacks ----------------------------------------------------------------------------------

type Stack = {
  readonly demo: TestDemo;
  readonly call: ReturnType<typeof rawCaller>;
  readonly check: ReturnType<typeof openApiAnswerCheck>;
};

const openStack = async (env: Record<string, string>): Promise<Stack> => {
  const demo = await startTestDemo(env);
  const call = rawCaller(demo.origin);
  const document = await call.send({ method: 'GET', path: '/openapi.json' });
  expect(document.status).toBe(200);
  return { demo, call, check: openApiAnswerCheck(document.body as never) };
};

const sendJson = (stack: Stack, method: string, path: string, key: string, body?: unknown) =>
  stack.call.send({
    method,
    path,
    headers: { SERVICE_API_KEY: key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** Uploads `files` through the links the API hands out, with the method each link names. */
const uploadFiles = async (stack: Stack, key: string, files: Readonly<Record<string, string>>) => {
  const links = await sendJson(stack, 'POST', '/manager/v1/uploads/request-batch-upload', key, {
    filenames: Object.keys(files),
  });
  expect(links.status, links.text).toBe(200);
  const { uploads } = links.body as {
    uploads: Array<{ filename: string; uploadUrl: string; method: string; headers?: Record<string, string> }>;
  };
  for (const upload of uploads) {
    const response = await fetch(upload.uploadUrl, {
      method: upload.method,
      ...(upload.headers ? { headers: upload.headers } : {}),
      body: files[upload.filename] ?? '',
    });
    expect(response.status).toBe(200);
  }
  return uploads;
};

/** The answer's problems: a 5xx, an undocumented status or body, a non-standard error body. */
const problemsOf = (stack: Stack, operation: DocumentedOperation, answer: RawAnswer): string[] => {
  const problems = stack.check.problemsOf(operation, answer);
  if (answer.status >= 500) problems.unshift(`answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  if (answer.status >= 400 && !errorBodySchema.safeParse(answer.body).success) {
    problems.push(`error body is not the documented one: ${answer.text.slice(0, 300)}`);
  }
  return problems;
};

const ASSERT_NO_LOGGED_OUTAGE = (stack: Stack) => {
  expect(stack.demo.logged, 'the kit logged 500/503 causes').toEqual([]);
};

// --- the suite, once per stack ------------------------------------------------------------------

type StackDefinition = {
  readonly name: string;
  /** The demo's environment, and how to throw away what it stored. */
  readonly open: () => Promise<{ env: Record<string, string>; drop: () => Promise<void> }>;
};
const stacks: StackDefinition[] = [
  { name: 'memory', open: async () => ({ env: {}, drop: async () => {} }) },
  {
    name: 'PostgreSQL',
    open: async () => {
      const database = await openDemoDatabase();
      return { env: { DATABASE_URL: database.url }, drop: () => database.drop() };
    },
  },
];

describe.each(stacks)('hostile and valid requests on the $name stack', (stackDefinition) => {
  let stack: Stack;
  let dropDatabase: () => Promise<void> = async () => {};
  let realClientId: string;

  beforeAll(async () => {
    const opened = await stackDefinition.open();
    dropDatabase = opened.drop;
    stack = await openStack(opened.env);
    const created = await sendJson(
      stack,
      'POST',
      '/manager/v1/clients/entities',
      keys.managerA,
      exampleEntityPayload(),
    );
    expect(created.status, created.text).toBe(201);
    realClientId = (created.body as { id: string }).id;
  });
  afterAll(async () => {
    stack?.call.close();
    await stack?.demo.close();
    await dropDatabase();
  });

  test(`any request to any documented route (${RUNS.anyRequest} cases): never a 5xx, always as documented`, async () => {
    const operations = stack.check.operations;
    // Each operation's generator made once, not at every case: making fast-check's "binary" string
    // generator builds a map of every code point (about 1.3 CPU s over the 800 cases of both
    // stacks, and its garbage). Making one draws nothing: the cases are the same.
    const segment = pathSegment([realClientId, clientA1Id]);
    const requestFor = new Map(
      operations.map((operation) => [
        operation,
        fc.record({
          operation: fc.constant(operation),
          segments: fc.array(segment, { minLength: 2, maxLength: 2 }),
          query: operation.method === 'GET' ? queryString : fc.constant(''),
          apiKey: apiKeyHeader,
          idempotency: idempotencyHeader,
          body: bodyPlan(operation),
        }),
      ]),
    );
    const request = fc
      .constantFrom(...operations)
      .chain((operation) => requestFor.get(operation) ?? fc.constant(undefined as never));
    await fc.assert(
      fc.asyncProperty(request, async ({ operation, segments, query, apiKey, idempotency, body }) => {
        let index = 0;
        const path = operation.pathTemplate.replace(/\{[^}]+\}/g, () => segments[index++] ?? 'x') + query;
        const answer = await stack.call.send({
          method: operation.method,
          path,
          headers: { ...apiKey, ...idempotency, ...body.headers },
          ...(body.bytes === undefined ? {} : { body: body.bytes }),
        });
        expect(problemsOf(stack, operation, answer), `${operation.method} ${path}`).toEqual([]);
      }),
      { numRuns: RUNS.anyRequest },
    );
    ASSERT_NO_LOGGED_OUTAGE(stack);
  });

  const entityTextFields = [
    ['company', 'name'],
    ['company', 'registrationNumber'],
    ['company', 'registeredAddress'],
    ['company', 'registeredAddressCity'],
    ['company', 'turnover'],
    ['representatives', 0, 'jobTitle'],
    ['representatives', 0, 'lastName'],
    ['companyDirectorsAndUbos', 'directors', 0, 'name'],
    ['bankAccounts', 0, 'label'],
  ] as const;
  /** The fields above that name a person or a company: each must hold a letter. */
  const nameFields = new Set([
    'company.name',
    'representatives[0].lastName',
    'companyDirectorsAndUbos.directors[0].name',
  ]);
  const pathText = (path: readonly (string | number)[]) =>
    path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('');
  const withText = (path: readonly (string | number)[], text: string) => {
    const payload = exampleEntityPayload() as unknown as Record<string | number, unknown>;
    let target = payload;
    for (const part of path.slice(0, -1)) target = target[part] as Record<string | number, unknown>;
    target[path[path.length - 1] as string | number] = text;
    return payload;
  };

  const createOperation = () => {
    const operation = stack.check.operations.find((o) => o.operation.operationId === 'managerCreateEntity');
    if (!operation) throw new Error('managerCreateEntity is not in the served document');
    return operation;
  };

  /** Creates the example entity with `text` at `field`; the answer is as documented, whatever it is. */
  const createEntityWithText = async (field: (typeof entityTextFields)[number], text: string) => {
    const created = await sendJson(
      stack,
      'POST',
      '/manager/v1/clients/entities',
      keys.managerA,
      withText(field, text),
    );
    expect(problemsOf(stack, createOperation(), created)).toEqual([]);
    return created;
  };

  test(`typeable text of any script in free-text fields (${RUNS.textFields} cases) is stored and read back as sent`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...entityTextFields), typeableText(), async (field, text) => {
        const created = await createEntityWithText(field, text);
        if (nameFields.has(pathText(field)) && !/\p{L}/u.test(text)) {
          // A name is screened: one without a letter names nobody, and is refused at its field.
          expect([created.status, (created.body as { parameterErrors: unknown }).parameterErrors]).toEqual([
            400,
            { [pathText(field)]: ['Must contain a letter'] },
          ]);
          return;
        }
        expect(created.status, `${pathText(field)} = ${JSON.stringify(text)}: ${created.text}`).toBe(201);
        const read = await sendJson(
          stack,
          'GET',
          `/manager/v1/clients/${(created.body as { id: string }).id}`,
          keys.managerA,
        );
        expect(read.status).toBe(200);
        // The response names the request's `representatives` `companyRepresentatives`.
        const responsePath =
          field[0] === 'representatives' ? ['companyRepresentatives', ...field.slice(1)] : field;
        let value: unknown = read.body;
        for (const part of responsePath) value = (value as Record<string | number, unknown>)[part];
        expect(value).toBe(text);
      }),
      { numRuns: RUNS.textFields },
    );
    ASSERT_NO_LOGGED_OUTAGE(stack);
  });

  test(`text of every Unicode category in free-text fields (${RUNS.textFields} cases): stored, or refused at that field only`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...entityTextFields), anyText(30), async (field, text) => {
        const created = await createEntityWithText(field, text);
        if (hasUnstorableCharacter(text)) {
          // The same refusal on every back end, before PostgreSQL could refuse the row.
          expect(created.status, created.text).toBe(400);
          expect((created.body as { parameterErrors: unknown }).parameterErrors).toEqual({
            [pathText(field)]: [UNSTORABLE_TEXT_MESSAGE],
          });
        } else if (created.status === 400) {
          const body = created.body as { code: string; parameterErrors: Record<string, string[]> };
          expect(body.code).toBe('VALIDATION_FAILED');
          expect(Object.keys(body.parameterErrors)).toEqual([pathText(field)]);
        } else {
          expect(created.status, created.text).toBe(201);
        }
      }),
      { numRuns: RUNS.textFields },
    );
    ASSERT_NO_LOGGED_OUTAGE(stack);
  });

  test(`a crafted cursor of any list (${RUNS.craftedCursors} cases): a page, or the same 400 at its parameter, never an outage`, async () => {
    const endpoint = await sendJson(stack, 'POST', '/manager/v1/webhook-endpoints', keys.managerA, {
      url: 'https://hooks.example.com/cursors',
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    const endpointId = (endpoint.body as { id: string }).id;
    try {
      await expectCraftedCursorsRefused(endpointId);
    } finally {
      // No later create of this suite may queue deliveries to it (the demo sends them for real).
      const removed = await sendJson(
        stack,
        'DELETE',
        `/manager/v1/webhook-endpoints/${endpointId}`,
        keys.managerA,
      );
      expect(removed.status, removed.text).toBe(200);
    }
    ASSERT_NO_LOGGED_OUTAGE(stack);
  });

  const expectCraftedCursorsRefused = async (endpointId: string) => {
    const lists = [
      { operationId: 'managerListClients', path: '/manager/v1/clients', parameter: 'cursor' },
      { operationId: 'managerListEvents', path: '/manager/v1/events', parameter: 'after' },
      {
        operationId: 'managerListWebhookDeliveries',
        path: `/manager/v1/webhook-endpoints/${endpointId}/deliveries`,
        parameter: 'cursor',
      },
    ] as const;
    const operationOf = (operationId: string) => {
      const operation = stack.check.operations.find((o) => o.operation.operationId === operationId);
      if (!operation) throw new Error(`${operationId} is not in the served document`);
      return operation;
    };
    const id = realClientId;
    const tuple = (...elements: unknown[]) => Buffer.from(JSON.stringify(elements)).toString('base64url');
    const known = [
      tuple('Tue Mar 05 2024 10:00:00 GMT+0000', id),
      tuple('2026-11-23T08:00:00.123+01:00', id),
      tuple('2026-11-23T08:00:00.123Z', 'not-a-uuid'),
      tuple('2026-02-30T08:00:00.000Z', id),
      tuple('+275760-09-13T00:00:00.000Z', id),
      tuple('0000-01-01T00:00:00.000Z', id),
      Buffer.from('e1.9999999999999999999').toString('base64url'),
      tuple('1', '9999999999999999999'),
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...lists),
        fc.oneof(fc.constantFrom(...known), craftedCursor),
        async (list, cursor) => {
          const path = `${list.path}?${list.parameter}=${cursor}`;
          const answer = await stack.call.send({
            method: 'GET',
            path,
            headers: { SERVICE_API_KEY: keys.managerA },
          });
          expect(problemsOf(stack, operationOf(list.operationId), answer), path).toEqual([]);
          if (answer.status !== 200) {
            expect(
              [answer.status, (answer.body as { parameterErrors: unknown }).parameterErrors],
              path,
            ).toEqual([
              400,
              { [list.parameter]: ['Invalid cursor: pass the nextCursor of a previous page'] },
            ]);
          }
        },
      ),
      { numRuns: RUNS.craftedCursors },
    );
    // The known crafted ones are refused, never read as a page.
    for (const cursor of known.slice(0, 6)) {
      for (const list of lists.filter(({ parameter }) => parameter === 'cursor')) {
        const answer = await stack.call.send({
          method: 'GET',
          path: `${list.path}?cursor=${cursor}`,
          headers: { SERVICE_API_KEY: keys.managerA },
        });
        expect(answer.status, `${list.path} ${cursor}`).toBe(400);
      }
    }
    for (const after of known.slice(6)) {
      const answer = await stack.call.send({
        method: 'GET',
        path: `/manager/v1/events?after=${after}`,
        headers: { SERVICE_API_KEY: keys.managerA },
      });
      expect(answer.status, after).toBe(400);
    }
  };

  test('a NUL or an unpaired surrogate is a 400 at its field in every string the API takes', async () => {
    for (const unstorable of ['\u0000', '\ud800', '\udfff']) {
      const reason = await sendJson(
        stack,
        'POST',
        `/compliance/v1/clients/${realClientId}/request-resubmission`,
        keys.compliance,
        { reason: `blurred${unstorable}` },
      );
      expect(reason.status, reason.text).toBe(400);
      expect((reason.body as { parameterErrors: unknown }).parameterErrors).toEqual({
        reason: [UNSTORABLE_TEXT_MESSAGE],
      });
      const download = await sendJson(
        stack,
        'POST',
        '/manager/v1/documents/request-batch-download',
        keys.managerA,
        { filenames: [`${randomUUID()}_a${unstorable}.pdf`] },
      );
      expect(download.status, download.text).toBe(400);
      expect((download.body as { parameterErrors: unknown }).parameterErrors).toEqual({
        'filenames[0]': [UNSTORABLE_TEXT_MESSAGE],
      });
      const upload = await sendJson(
        stack,
        'POST',
        '/manager/v1/uploads/request-batch-upload',
        keys.managerA,
        {
          filenames: [`a${unstorable}.pdf`],
        },
      );
      expect(upload.status, upload.text).toBe(400);
      expect(Object.keys((upload.body as { parameterErrors: object }).parameterErrors)).toEqual([
        'filenames[0]',
      ]);
      const list = await stack.call.send({
        method: 'GET',
        path: `/manager/v1/clients?cursor=${percentEncodeUtf8(`x${unstorable}`)}`,
        headers: { SERVICE_API_KEY: keys.managerA },
      });
      expect(list.status, list.text).toBe(400);
    }
    ASSERT_NO_LOGGED_OUTAGE(stack);
  });

  test(`any filename (${RUNS.hostileFilenames} cases): refused at its index, or it uploads, is used and downloads under its own name`, async () => {
    const uploadOperation = stack.check.operations.find(
      (o) => o.operation.operationId === 'managerRequestBatchUpload',
    );
    if (!uploadOperation) throw new Error('managerRequestBatchUpload is not in the served document');
    await fc.assert(
      fc.asyncProperty(anyText(80), async (filename) => {
        const links = await sendJson(
          stack,
          'POST',
          '/manager/v1/uploads/request-batch-upload',
          keys.managerA,
          {
            filenames: [filename],
          },
        );
        expect(problemsOf(stack, uploadOperation, links)).toEqual([]);
        if (links.status === 400) {
          expect(Object.keys((links.body as { parameterErrors: object }).parameterErrors)).toEqual([
            'filenames[0]',
          ]);
          return;
        }
        expect(links.status).toBe(200);
        await expectUploadUseAndDownload(
          stack,
          (links.body as { uploads: Array<{ filename: string }> }).uploads[0]?.filename ?? filename,
        );
      }),
      { numRuns: RUNS.hostileFilenames },
    );
    ASSERT_NO_LOGGED_OUTAGE(stack);
  });

  test(`typeable filenames of any script (${RUNS.validFilenames} cases) are accepted, used in a create and download under their name`, async () => {
    const filename = typeableText(60)
      .map((text) => `${text.replace(/[/\\]/g, '_')}.pdf`)
      .filter((name) => Buffer.byteLength(name, 'utf8') <= 255);
    await fc.assert(
      fc.asyncProperty(filename, async (name) => {
        await expectUploadUseAndDownload(stack, name);
      }),
      { numRuns: RUNS.validFilenames },
    );
    ASSERT_NO_LOGGED_OUTAGE(stack);
  });

  test(`altered signed links (${RUNS.signedLinks} cases) are refused, any body to them is never a 5xx`, async () => {
    const [upload] = await uploadFiles(stack, keys.managerA, { 'link-under-attack.pdf': 'original' });
    if (upload === undefined) throw new Error('no upload link');
    const { pathname } = new URL(upload.uploadUrl);
    const token = pathname.slice(pathname.lastIndexOf('/') + 1);
    const prefix = pathname.slice(0, pathname.lastIndexOf('/') + 1);
    const altered = fc
      .oneof(
        anyText(5).map((junk) => `${token}${percentEncodeUtf8(junk)}`),
        anyText(5).map((junk) => `${percentEncodeUtf8(junk)}${token}`),
        fc
          .tuple(fc.nat(token.length - 1), fc.constantFrom('A', '_', '-', '.', '%20', '!', '='))
          .map(([at, replacement]) => `${token.slice(0, at)}${replacement}${token.slice(at + 1)}`),
        fc.constantFrom(
          `${token}!`,
          `${token}@@@`,
          `${token}%20`,
          `${token}=`,
          `${token}==`,
          token.toLowerCase(),
        ),
      )
      .filter((candidate) => candidate !== token);
    await fc.assert(
      fc.asyncProperty(altered, fc.constantFrom('PUT', 'GET'), async (candidate, method) => {
        const answer = await stack.call.send({
          method,
          path: `${prefix}${candidate}`.replace('/uploads/', method === 'GET' ? '/downloads/' : '/uploads/'),
          ...(method === 'PUT' ? { body: 'replaced' } : {}),
        });
        expect(answer.status, `${method} ${candidate}`).toBeGreaterThanOrEqual(400);
        expect(answer.status, `${method} ${candidate}`).toBeLessThan(500);
        expect(errorBodySchema.safeParse(answer.body).success, answer.text).toBe(true);
      }),
      { numRuns: RUNS.signedLinks },
    );
    const files = await sendJson(stack, 'GET', '/manager/v1/uploads', keys.managerA);
    const stored = (files.body as { files: Array<{ filename: string; size: number }> }).files.find(
      (file) => file.filename === 'link-under-attack.pdf',
    );
    expect(stored?.size, 'no altered link replaced the upload').toBe('original'.length);
    ASSERT_NO_LOGGED_OUTAGE(stack);
  });

  test('bodies at and over each limit: 1,000-character strings, 50-item arrays, 50 filenames, 1 MiB', async () => {
    const create = createOperation();
    const atLimit = withText(['company', 'name'], 'x'.repeat(1000));
    const overLimit = withText(['company', 'name'], 'x'.repeat(1001));
    const at = await sendJson(stack, 'POST', '/manager/v1/clients/entities', keys.managerA, atLimit);
    expect(problemsOf(stack, create, at)).toEqual([]);
    expect(at.status, at.text).toBe(201);
    const over = await sendJson(stack, 'POST', '/manager/v1/clients/entities', keys.managerA, overLimit);
    expect(over.status).toBe(400);
    expect(Object.keys((over.body as { parameterErrors: object }).parameterErrors)).toEqual(['company.name']);

    const accounts = (count: number) => {
      const payload = exampleEntityPayload();
      const account = payload.bankAccounts?.[0];
      return {
        ...payload,
        bankAccounts: Array.from({ length: count }, (_, i) => ({ ...account, label: `Account ${i}` })),
      };
    };
    const fifty = await sendJson(stack, 'POST', '/manager/v1/clients/entities', keys.managerA, accounts(50));
    expect(fifty.status, fifty.text).toBe(201);
    const fiftyOne = await sendJson(
      stack,
      'POST',
      '/manager/v1/clients/entities',
      keys.managerA,
      accounts(51),
    );
    expect(fiftyOne.status).toBe(400);
    expect(Object.keys((fiftyOne.body as { parameterErrors: object }).parameterErrors)).toEqual([
      'bankAccounts',
    ]);

    const names = (count: number) => Array.from({ length: count }, (_, i) => `limit-${i}.pdf`);
    const fiftyNames = await sendJson(
      stack,
      'POST',
      '/manager/v1/uploads/request-batch-upload',
      keys.managerA,
      {
        filenames: names(50),
      },
    );
    expect(fiftyNames.status, fiftyNames.text).toBe(200);
    const fiftyOneNames = await sendJson(
      stack,
      'POST',
      '/manager/v1/uploads/request-batch-upload',
      keys.managerA,
      {
        filenames: names(51),
      },
    );
    expect(fiftyOneNames.status).toBe(400);

    // A valid payload padded with JSON whitespace to just under and just over 1 MiB.
    const padded = (size: number) => {
      const json = JSON.stringify(exampleEntityPayload());
      return `${json}${' '.repeat(size - Buffer.byteLength(json))}`;
    };
    const underMib = await stack.call.send({
      method: 'POST',
      path: '/manager/v1/clients/entities',
      headers: { SERVICE_API_KEY: keys.managerA, 'Content-Type': 'application/json' },
      body: padded(1_048_576),
    });
    expect(problemsOf(stack, create, underMib)).toEqual([]);
    expect(underMib.status, underMib.text).toBe(201);
    const overMib = await stack.call.send({
      method: 'POST',
      path: '/manager/v1/clients/entities',
      headers: { SERVICE_API_KEY: keys.managerA, 'Content-Type': 'application/json' },
      body: padded(1_048_577),
    });
    expect(problemsOf(stack, create, overMib)).toEqual([]);
    expect((overMib.body as { code: string }).code).toBe('PAYLOAD_TOO_LARGE');
    ASSERT_NO_LOGGED_OUTAGE(stack);
  });

  /** Upload → create an individual with it → the document downloads, same bytes, same name. */
  const expectUploadUseAndDownload = async (stack: Stack, filename: string) => {
    const content = `scan of ${randomUUID()}`;
    await uploadFiles(stack, keys.managerA, { [filename]: content });
    const created = await sendJson(
      stack,
      'POST',
      '/manager/v1/clients/individuals',
      keys.managerA,
      exampleIndividualPayload({ idDocuments: [filename] }),
    );
    expect(created.status, `${JSON.stringify(filename)}: ${created.text}`).toBe(201);
    const [documentKey] = (created.body as { individualProfile: { idDocuments: string[] } }).individualProfile
      .idDocuments;
    expect(documentKey?.endsWith(`_${filename}`)).toBe(true);
    const presigned = await sendJson(
      stack,
      'POST',
      '/manager/v1/documents/request-batch-download',
      keys.managerA,
      {
        filenames: [documentKey],
      },
    );
    expect(presigned.status, presigned.text).toBe(200);
    const [download] = (presigned.body as { downloads: Array<{ downloadUrl: string }> }).downloads;
    const response = await fetch(download?.downloadUrl ?? '');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(content);
    expect(attachmentName(response.headers.get('content-disposition'))).toBe(filename);
  };
});
