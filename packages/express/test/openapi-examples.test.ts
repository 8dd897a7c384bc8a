import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createControllableClock,
  createOnboardingKit,
  defaultReferenceLists,
  type OnboardingKitOptions,
  principalKey,
} from '@onboarding-kit/core';
import type { ScreeningProvider } from '@onboarding-kit/core/adapter';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import express from 'express';
import { okAsync } from 'neverthrow';
import request from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import { type HttpLogger, mountOnboardingKit } from '../src/index.js';

type JsonObject = Record<string, unknown>;
type DocumentedOperation = {
  readonly operationId: string;
  readonly tags: readonly string[];
  readonly requestBody?: { content: { 'application/json': { example?: unknown } } };
  readonly responses: Record<string, unknown>;
};

const silent: HttpLogger = { error: () => undefined };
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A screening that flags every legal UBO (the documented entity has one), and nobody else. */
const flagsLegalUbos: ScreeningProvider = {
  screen: (subjects) =>
    okAsync(
      subjects
        .filter(({ field, kind }) => kind === 'COMPANY' && field.startsWith('companyDirectorsAndUbos.ubos'))
        .map(({ field, name }) => ({
          field,
          name,
          listName: 'Examples',
          matchedName: name,
          score: 0.9,
          targetId: 'examples-1',
        })),
    ),
};

/** The `signedAt` of the documented terms evidence (the examples of the request body). */
const documentedSignedAt = '2026-03-02T09:30:00.000Z';

/** A host app on a real socket: the kit mounted at the root over memory adapters, as the demo does. */
const startApp = async (options?: OnboardingKitOptions) => {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The kit's time is the documented signature's: the example's `signedAt` is neither in the
  // future nor before the clients this test creates.
  const clock = createControllableClock(new Date(documentedSignedAt));
  const adapters = createMemoryAdapters({ publicBaseUrl: `${origin}/storage`, clock });
  const kit = createOnboardingKit({
    ...adapters,
    screening: flagsLegalUbos,
    ...(options ? { options } : {}),
  });
  const app = express();
  mountOnboardingKit(app, kit, { signedLinks: adapters.signedLinks, logger: silent });
  server.on('request', app);
  const manager = { kind: 'manager', managerId: randomUUID() } as const;
  const register = async (principal: Parameters<typeof kit.apiKeys.register>[1]) => {
    const key = `examples-${randomUUID()}`;
    (await kit.apiKeys.register(key, principal))._unsafeUnwrap();
    return key;
  };
  const keys: Record<string, string> = {
    manager: await register(manager),
    client: await register({ kind: 'client', clientId: randomUUID(), managerId: manager.managerId }),
    compliance: await register({ kind: 'compliance', complianceId: 'compliance-team' }),
  };
  const api = request(server);
  const served = await api.get('/openapi.json');
  expect(served.status).toBe(200);
  /** Runs the screening jobs queued so far (approval waits for them). */
  const screenDue = () => adapters.testing.screenDueClients(kit);
  return { api, adapters, manager, keys, screenDue, document: served.body as JsonObject };
};
type App = Awaited<ReturnType<typeof startApp>>;

const operationsOf = (document: JsonObject) =>
  Object.entries(document.paths as Record<string, Record<string, DocumentedOperation>>).flatMap(
    ([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );

const documentedExample = (app: App, operationId: string): unknown => {
  const found = operationsOf(app.document).find(({ operation }) => operation.operationId === operationId);
  return found?.operation.requestBody?.content['application/json'].example;
};

/** The filenames of every `...Documents` array of a payload, at any depth. */
const documentNames = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.flatMap(documentNames);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([field, inner]) =>
    field.endsWith('Documents') && Array.isArray(inner)
      ? inner.filter((name): name is string => typeof name === 'string')
      : documentNames(inner),
  );
};

/** Uploads through the kit's own flow: presigned addresses, then a PUT of bytes to each. */
const upload = async (app: App, kind: string, filenames: readonly string[]) => {
  if (filenames.length === 0) return;
  const answer = await app.api
    .post(`/${kind}/v1/uploads/request-batch-upload`)
    .set('SERVICE_API_KEY', app.keys[kind] ?? '')
    .send({ filenames: [...new Set(filenames)] });
  expect(answer.status).toBe(200);
  for (const { uploadUrl, headers, filename } of answer.body.uploads) {
    const put = await fetch(uploadUrl, { method: 'PUT', headers, body: `bytes of ${filename}` });
    expect(put.status).toBe(200);
  }
};

/** Posts an operation's documented example, with the files it names uploaded first. */
const postExample = async (app: App, operationId: string, params: Record<string, string> = {}) => {
  const found = operationsOf(app.document).find(({ operation }) => operation.operationId === operationId);
  if (found === undefined) throw new Error(`no operation ${operationId}`);
  const [kind = ''] = found.operation.tags;
  const example = found.operation.requestBody?.content['application/json'].example;
  await upload(app, kind, documentNames(example));
  const path = found.path.replace(/\{(\w+)\}/g, (_match, name: string) => params[name] ?? `{${name}}`);
  return app.api[found.method as 'post' | 'put'](path)
    .set('SERVICE_API_KEY', app.keys[kind] ?? '')
    .send(example as object);
};

const expectCreated = async (app: App, operationId: string, params?: Record<string, string>) => {
  const answer = await postExample(app, operationId, params);
  expect([answer.status, answer.body.code]).toEqual([201, undefined]);
  return answer.body as { id: string };
};

const review = async (app: App, clientId: string, step: string, body?: unknown) => {
  if (step === 'approve') await app.screenDue();
  const answer = await app.api
    .post(`/compliance/v1/clients/${clientId}/${step}`)
    .set('SERVICE_API_KEY', app.keys.compliance ?? '')
    .send(body as object);
  expect(answer.status).toBe(200);
};

/**
 * The example of `operationId` names document keys (`<uuid>_<filename>`): each document is stored
 * under its key for a new client of the manager, from a file uploaded through the kit.
 */
const storeDocumentedKeys = async (app: App, operationId: string): Promise<string> => {
  const { filenames } = documentedExample(app, operationId) as { filenames: string[] };
  const { id: clientId } = await expectCreated(app, 'managerCreateIndividual');
  const owner = principalKey(app.manager);
  for (const key of filenames) {
    const filename = key.slice(key.indexOf('_') + 1);
    await upload(app, 'manager', [filename]);
    const file = (await app.adapters.documentStorage.statTemporary(owner, filename))._unsafeUnwrap();
    if (file === null) throw new Error(`${filename} was not uploaded`);
    (
      await app.adapters.documentStorage.copyToPermanent([{ owner, filename, key, version: file.version }])
    )._unsafeUnwrap();
    (
      await app.adapters.documentIndex.insertMany([
        {
          key,
          clientId,
          managerId: app.manager.managerId,
          filename,
          size: file.size,
          storedAt: new Date().toISOString(),
        },
      ])
    )._unsafeUnwrap();
  }
  return clientId;
};

/**
 * What each operation with a body needs before its example can succeed (a client in the right
 * status, an endpoint, a stored document); resolves to its path parameters. Every setup reaches
 * that state through the documented examples of other operations.
 */
const setups: Record<string, (app: App) => Promise<Record<string, string>>> = {
  managerCreateIndividual: async () => ({}),
  managerCreateEntity: async () => ({}),
  managerRequestBatchUpload: async () => ({}),
  clientRequestBatchUpload: async () => ({}),
  managerCreateWebhookEndpoint: async () => ({}),
  managerRotateWebhookSecret: async (app) => ({
    endpointId: (await expectCreated(app, 'managerCreateWebhookEndpoint')).id,
  }),
  complianceRequestResubmission: async (app) => ({
    clientId: (await expectCreated(app, 'managerCreateIndividual')).id,
  }),
  // An approved client is what it needs.
  complianceMarkTermsSigned: async (app) => {
    const { id } = await expectCreated(app, 'managerCreateIndividual');
    await review(app, id, 'approve');
    return { clientId: id };
  },
  // A hit of the screening of the documented entity (its legal UBO).
  complianceResolveScreeningHit: async (app) => {
    const { id } = await expectCreated(app, 'managerCreateEntity');
    await app.screenDue();
    const hit = app.adapters.testing.readClient(id)?.screening?.hits[0];
    if (hit === undefined) throw new Error('the documented entity has a screening hit');
    return { clientId: id, hitId: hit.id };
  },
  managerResubmitIndividual: async (app) => {
    const { id } = await expectCreated(app, 'managerCreateIndividual');
    await review(app, id, 'request-resubmission', documentedExample(app, 'complianceRequestResubmission'));
    return { clientId: id };
  },
  managerResubmitEntity: async (app) => {
    const { id } = await expectCreated(app, 'managerCreateEntity');
    await review(app, id, 'request-resubmission', documentedExample(app, 'complianceRequestResubmission'));
    return { clientId: id };
  },
  // The example names a document key (`<uuid>_<filename>`): the document is stored under that key
  // for a client of the caller, from a file uploaded through the kit.
  managerRequestBatchDownload: async (app) => {
    await storeDocumentedKeys(app, 'managerRequestBatchDownload');
    return {};
  },
  complianceRequestClientDownloads: async (app) => ({
    clientId: await storeDocumentedKeys(app, 'complianceRequestClientDownloads'),
  }),
  // A client waiting in the queue.
  complianceAssignNext: async (app) => {
    await expectCreated(app, 'managerCreateIndividual');
    return {};
  },
};

describe('OpenAPI examples: "Try it out" works', () => {
  test('every operation with a body documents an example, and posting it answers its documented 2xx', async () => {
    const app = await startApp();
    const withBody = operationsOf(app.document).filter(({ operation }) => operation.requestBody);
    expect(withBody.length).toBeGreaterThanOrEqual(10);
    for (const { path, method, operation } of withBody) {
      const label = `${method} ${path} (${operation.operationId})`;
      expect(operation.requestBody?.content['application/json'].example, label).toBeDefined();
      const setup = setups[operation.operationId];
      expect(setup, `${label}: add its setup to this test`).toBeDefined();
      const params = (await setup?.(app)) ?? {};
      const answer = await postExample(app, operation.operationId, params);
      const documented = Object.keys(operation.responses).filter((status) => status.startsWith('2'));
      expect(documented, label).toHaveLength(1);
      expect([answer.status, answer.body], label).toEqual([Number(documented[0]), expect.anything()]);
      expect(answer.body.code, `${label}: ${JSON.stringify(answer.body)}`).toBeUndefined();
    }
  });

  test('a kit with its own reference lists documents them as the enums, with an example that passes', async () => {
    const referenceLists = {
      countryCodes: ['FR', 'XK'],
      occupations: ['PILOT', 'OTHER'],
      businessSectors: ['OTHER', 'AVIATION'],
      blockchainNetworks: ['BITCOIN'],
    };
    const app = await startApp({ referenceLists });
    const schemas = (app.document.components as { schemas: Record<string, JsonObject> }).schemas;
    expect(schemas.CountryCode).toEqual({ type: 'string', enum: ['FR', 'XK'] });
    expect(schemas.Occupation).toEqual({ type: 'string', enum: ['PILOT', 'OTHER'] });
    expect(schemas.BusinessSector).toEqual({ type: 'string', enum: ['OTHER', 'AVIATION'] });
    expect(schemas.BlockchainNetwork).toEqual({ type: 'string', enum: ['BITCOIN'] });
    // The lists the host did not replace are the defaults.
    expect(schemas.FiatCurrency).toEqual({ type: 'string', enum: [...defaultReferenceLists.fiatCurrencies] });
    expect(schemas.SourceOfFunds).toEqual({
      type: 'string',
      enum: [...defaultReferenceLists.sourcesOfFunds],
    });
    // The payload's list-bound fields refer to them.
    const payload = schemas.IndividualOnboardingPayload as { properties: Record<string, JsonObject> };
    const profile = payload.properties.profile as { properties: Record<string, unknown> };
    expect(profile.properties.occupation).toEqual({
      $ref: '#/components/schemas/Occupation',
    });
    const example = documentedExample(app, 'managerCreateIndividual') as { profile: JsonObject };
    expect(example.profile).toMatchObject({
      countryCode: 'FR',
      occupation: 'PILOT',
      jobBusinessSector: 'AVIATION',
    });
    await expectCreated(app, 'managerCreateIndividual');
    await expectCreated(app, 'managerCreateEntity');
  });

  test('the default document enumerates the default lists', async () => {
    const app = await startApp();
    const schemas = (app.document.components as { schemas: Record<string, JsonObject> }).schemas;
    expect(schemas.CountryCode).toEqual({ type: 'string', enum: [...defaultReferenceLists.countryCodes] });
    expect(schemas.Occupation).toEqual({ type: 'string', enum: [...defaultReferenceLists.occupations] });
  });
});
