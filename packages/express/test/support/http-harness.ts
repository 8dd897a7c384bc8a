import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createControllableClock,
  createOnboardingKit,
  exampleEntityPayload,
  exampleIndividualPayload,
  type OnboardingKitOptions,
  type OnboardingKitPorts,
  type PresetFee,
  type Principal,
} from '@onboarding-kit/core';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import express from 'express';
import request from 'supertest';
import { expect } from 'vitest';
import {
  type AuthenticateRequest,
  createApiDocsRouter,
  createClientRouter,
  createComplianceRouter,
  createManagerRouter,
  createSignedLinkRouter,
  type HttpLogger,
  type InFlightByteBudget,
} from '../../src/index.js';

export type LoggedError = { readonly message: string; readonly details: Readonly<Record<string, unknown>> };

export type HarnessOptions = {
  readonly authenticate?: AuthenticateRequest;
  readonly kitOptions?: OnboardingKitOptions;
  /** Real adapters of another kind in place of some memory ones (an unreachable store, say). */
  readonly ports?: Partial<OnboardingKitPorts>;
  /** The memory storage's upload limit (default: the adapter's). */
  readonly maxUploadBytes?: number;
  readonly maxTemporaryFilesPerOwner?: number;
  /** The signed-link router's upload deadline (default: the router's). */
  readonly uploadTimeoutMs?: number;
  /** The signed-link router's budget of upload bytes in flight (default: the router's). */
  readonly inFlightBudget?: InFlightByteBudget;
  /** The interface routers' JSON body deadline (default: the routers'). */
  readonly jsonBodyTimeoutMs?: number;
  /** Lets a suite add its own host routes before the kit's routers are mounted. */
  readonly hostRoutes?: (app: express.Express, kit: ReturnType<typeof createOnboardingKit>) => void;
};

/**
 * A host app on a real socket: the three routers at the demo's paths, the signed-link router at
 * `/storage`, the docs at the root, on the real kit over memory adapters. Keys are random per harness.
 */
export const startHarness = async (options: HarnessOptions = {}) => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clock = createControllableClock(new Date());
  const adapters = createMemoryAdapters({
    clock,
    publicBaseUrl: `${origin}/storage`,
    ...(options.maxUploadBytes ? { maxUploadBytes: options.maxUploadBytes } : {}),
    ...(options.maxTemporaryFilesPerOwner
      ? { maxTemporaryFilesPerOwner: options.maxTemporaryFilesPerOwner }
      : {}),
  });
  const kit = createOnboardingKit({
    ...adapters,
    ...options.ports,
    ...(options.kitOptions ? { options: options.kitOptions } : {}),
  });
  const logged: LoggedError[] = [];
  const warned: LoggedError[] = [];
  const logger: HttpLogger = {
    error: (message, details) => logged.push({ message, details }),
    warn: (message, details) => warned.push({ message, details }),
  };
  const routerOptions = {
    logger,
    ...(options.authenticate ? { authenticate: options.authenticate } : {}),
    ...(options.jsonBodyTimeoutMs ? { jsonBodyTimeoutMs: options.jsonBodyTimeoutMs } : {}),
  };

  const app = express();
  options.hostRoutes?.(app, kit);
  app.use('/manager/v1', createManagerRouter(kit, routerOptions));
  app.use('/client/v1', createClientRouter(kit, routerOptions));
  app.use('/compliance/v1', createComplianceRouter(kit, routerOptions));
  app.use(
    '/storage',
    createSignedLinkRouter(adapters.signedLinks, {
      logger,
      ...(options.uploadTimeoutMs ? { uploadTimeoutMs: options.uploadTimeoutMs } : {}),
      ...(options.inFlightBudget ? { inFlightBudget: options.inFlightBudget } : {}),
    }),
  );
  app.use(createApiDocsRouter());
  server.on('request', app);

  const register = async (principal: Principal) => {
    const key = `test-${principal.kind}-${randomUUID()}`;
    (await kit.apiKeys.register(key, principal))._unsafeUnwrap();
    return key;
  };
  const managerA = { kind: 'manager', managerId: randomUUID() } as const;
  const managerB = { kind: 'manager', managerId: randomUUID() } as const;
  const clientOfA = { kind: 'client', clientId: randomUUID(), managerId: managerA.managerId } as const;
  const keys = {
    managerA: await register(managerA),
    managerB: await register(managerB),
    clientOfA: await register(clientOfA),
    compliance: await register({ kind: 'compliance', complianceId: 'compliance-team' }),
  };

  const api = request(server);
  return {
    server,
    origin,
    api,
    kit,
    clock,
    adapters,
    logged,
    /** The refusals worth watching (401, 403, 413, 429, 503), as the binding warned them. */
    warned,
    keys,
    principals: { managerA, managerB, clientOfA },
    register,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

export type Harness = Awaited<ReturnType<typeof startHarness>>;

/** Requests upload URLs through the API and PUTs real bytes to each, as a caller would with curl. */
export const uploadFiles = async (
  harness: Harness,
  apiKey: string,
  files: Readonly<Record<string, Uint8Array | string>>,
  basePath = '/manager/v1',
): Promise<void> => {
  const response = await harness.api
    .post(`${basePath}/uploads/request-batch-upload`)
    .set('SERVICE_API_KEY', apiKey)
    .send({ filenames: Object.keys(files) });
  expect(response.status).toBe(200);
  for (const upload of response.body.uploads as {
    filename: string;
    uploadUrl: string;
    headers: Record<string, string>;
  }[]) {
    const content = files[upload.filename] ?? '';
    const put = await fetch(upload.uploadUrl, {
      method: 'PUT',
      headers: upload.headers,
      body: typeof content === 'string' ? content : Buffer.from(content),
    });
    expect(put.status).toBe(200);
  }
};

/** Uploads the ID document and creates an individual; resolves to the created client body. */
export const createIndividual = async (
  harness: Harness,
  apiKey: string,
  idDocument = `${randomUUID()}.pdf`,
) => {
  await uploadFiles(harness, apiKey, { [idDocument]: `scan of ${idDocument}` });
  const response = await harness.api
    .post('/manager/v1/clients/individuals')
    .set('SERVICE_API_KEY', apiKey)
    .send(exampleIndividualPayload({ idDocuments: [idDocument] }));
  expect(response.status).toBe(201);
  return response.body as { id: string; status: string; individualProfile: { idDocuments: string[] } };
};

export const createEntity = async (harness: Harness, apiKey: string) => {
  const response = await harness.api
    .post('/manager/v1/clients/entities')
    .set('SERVICE_API_KEY', apiKey)
    .send(exampleEntityPayload());
  expect(response.status).toBe(201);
  return response.body as { id: string; status: string };
};

export const seedPresetFee = async (
  harness: Harness,
  managerId: string,
  overrides: Partial<PresetFee> = {},
) => {
  const fee: PresetFee = {
    id: randomUUID(),
    feeDirection: 'ONRAMP',
    fiatFeeGroup: 'USD',
    blockchainFeeGroup: 'USD_STABLECOIN',
    configuration: { type: 'FLAT', fee: 1.5 },
    createdAt: new Date().toISOString(),
    ...overrides,
  };
  (await harness.kit.presetFees.add(managerId, fee))._unsafeUnwrap();
  return fee;
};

/** The error body of decisions §2, exactly. */
export const errorBody = (
  code: string,
  reason: string | RegExp = expect.any(String),
  parameterErrors: unknown = null,
) => ({
  code,
  reason: reason instanceof RegExp ? expect.stringMatching(reason) : reason,
  parameterErrors,
});
