import { randomUUID } from 'node:crypto';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { demoIdentities } from '@onboarding-kit/core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { tryItOutIds } from '../src/try-it-out-seed.js';
import { type DemoAnswer, type DemoCall, demoCaller } from './support/demo-http.js';
import { startTestDemo, type TestDemo } from './support/test-demo.js';

type Operation = {
  readonly operationId: string;
  readonly tags: readonly string[];
  readonly requestBody?: { content: { 'application/json': { example?: unknown } } };
  readonly responses: Record<string, unknown>;
};
type Documented = { readonly path: string; readonly method: string; readonly operation: Operation };

/** What the demo's keys are for, by the operation's interface (its tag). */
const keys: Record<string, string> = {
  manager: demoIdentities.managerA.apiKey,
  client: demoIdentities.clientA1.apiKey,
  compliance: demoIdentities.compliance.apiKey,
};

/** Ids an earlier step answered, for the path parameters of the later ones. */
type Made = Record<string, string>;

/**
 * Every documented example, in the order a person trying the API would take, each with the path
 * parameters it is tried on: a seeded client (a2) or one an earlier example made. A step whose
 * `example` is false is an operation without a body that the next example needs (an approval).
 */
const plan: readonly {
  readonly operationId: string;
  readonly params?: (made: Made) => Record<string, string>;
  /** Keeps an id of the answer for later steps. */
  readonly keep?: string;
  readonly example?: false;
}[] = [
  { operationId: 'managerRequestBatchUpload' },
  { operationId: 'clientRequestBatchUpload' },
  // The example names passport.pdf: the seed uploaded it.
  { operationId: 'managerCreateIndividual', keep: 'individual' },
  { operationId: 'managerCreateEntity', keep: 'entity' },
  { operationId: 'managerCreateWebhookEndpoint', keep: 'endpoint' },
  { operationId: 'managerRotateWebhookSecret', params: (made) => ({ endpointId: made.endpoint ?? '' }) },
  // The key the download examples name is a2's passport.
  { operationId: 'managerRequestBatchDownload' },
  { operationId: 'complianceRequestClientDownloads', params: () => ({ clientId: tryItOutIds.clientA2Id }) },
  {
    operationId: 'complianceResolveScreeningHit',
    params: () => ({ clientId: tryItOutIds.clientA2Id, hitId: tryItOutIds.clientA2HitId }),
  },
  { operationId: 'complianceAssignNext' },
  { operationId: 'complianceRequestResubmission', params: (made) => ({ clientId: made.individual ?? '' }) },
  // The example names passport-renewed.pdf: the seed uploaded it too.
  { operationId: 'managerResubmitIndividual', params: (made) => ({ clientId: made.individual ?? '' }) },
  { operationId: 'complianceRequestResubmission', params: (made) => ({ clientId: made.entity ?? '' }) },
  { operationId: 'managerResubmitEntity', params: (made) => ({ clientId: made.entity ?? '' }) },
  // a2's hit is dismissed: approved, it waits for the terms, signed after its creation.
  { operationId: 'complianceApprove', params: () => ({ clientId: tryItOutIds.clientA2Id }), example: false },
  { operationId: 'complianceMarkTermsSigned', params: () => ({ clientId: tryItOutIds.clientA2Id }) },
];

const operationsOf = (document: { paths: Record<string, Record<string, Operation>> }): Documented[] =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );

/** Sends what Swagger's "Try it out" sends: the example as it is, the key, the path filled in. */
const tryItOut = (call: DemoCall, { path, method, operation }: Documented, params: Record<string, string>) =>
  call(
    method.toUpperCase(),
    path.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(params[name] ?? `{${name}}`)),
    {
      key: keys[operation.tags[0] ?? ''] ?? '',
      ...(operation.requestBody === undefined
        ? {}
        : { body: operation.requestBody.content['application/json'].example }),
    },
  );

/** Runs the plan on a fresh demo: every example of the served document answers its documented 2xx. */
const tryEveryExample = async (demo: TestDemo) => {
  const call = demoCaller(demo.origin);
  const served = await call('GET', '/openapi.json');
  expect(served.status).toBe(200);
  const operations = operationsOf(served.body);
  const withExample = operations.filter(({ operation }) => operation.requestBody !== undefined);
  expect(withExample.length).toBeGreaterThanOrEqual(14);
  // Every documented example is in the plan, and the plan names only documented operations.
  expect(new Set(plan.filter((step) => step.example !== false).map((step) => step.operationId))).toEqual(
    new Set(withExample.map(({ operation }) => operation.operationId)),
  );
  const made: Made = {};
  const answers: { operationId: string; status: number; code: unknown }[] = [];
  for (const step of plan) {
    const documented = operations.find(({ operation }) => operation.operationId === step.operationId);
    if (documented === undefined) expect.fail(`${step.operationId} is not in the served document`);
    const answer: DemoAnswer = await tryItOut(call, documented, step.params?.(made) ?? {});
    const success = Object.keys(documented.operation.responses).find((status) => status.startsWith('2'));
    answers.push({ operationId: step.operationId, status: answer.status, code: answer.body?.code });
    expect([answer.status, answer.body?.code], `${step.operationId}: ${JSON.stringify(answer.body)}`).toEqual(
      [Number(success), undefined],
    );
    if (step.keep !== undefined) made[step.keep] = answer.body.id;
  }
  expect(demo.logged).toEqual([]);
  return answers;
};

describe('"Try it out": every documented example succeeds on a fresh demo', () => {
  let demo: TestDemo;
  beforeAll(async () => {
    demo = await startTestDemo();
  });
  afterAll(() => demo.close());

  test('in memory: each example of the served /openapi.json, in order, answers its 2xx', async () => {
    const answers = await tryEveryExample(demo);
    expect(answers.every(({ status }) => status === 200 || status === 201)).toBe(true);
  });

  test('the terms example is evidence of a signature after the seeded client existed, and the seeded hit is open', async () => {
    const call = demoCaller(demo.origin);
    const served = await call('GET', '/openapi.json');
    const terms = operationsOf(served.body).find(
      ({ operation }) => operation.operationId === 'complianceMarkTermsSigned',
    );
    const example = terms?.operation.requestBody?.content['application/json'].example;
    const signedAt = (example as { signedAt?: string } | undefined)?.signedAt ?? '';
    expect(Date.parse(signedAt)).not.toBeNaN();
    const fresh = await startTestDemo();
    try {
      const a2 = await demoCaller(fresh.origin)('GET', `/compliance/v1/clients/${tryItOutIds.clientA2Id}`, {
        key: keys.compliance ?? '',
      });
      expect(a2.status).toBe(200);
      expect(Date.parse(a2.body.createdAt)).toBeLessThan(Date.parse(signedAt));
      expect(a2.body.individualProfile.idDocuments).toEqual([
        '0b9e3c52-5d3a-4f6e-9a41-7c2d8e1f6a90_passport.pdf',
      ]);
      expect(a2.body.screening).toMatchObject({
        status: 'POSSIBLE_MATCH',
        hits: [{ id: tryItOutIds.clientA2HitId, resolution: null }],
      });
    } finally {
      await fresh.close();
    }
  });
});

describe('"Try it out" with documents in S3', () => {
  const endpoint = inject('demoS3Endpoint');
  const s3 = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  afterAll(() => s3.destroy());

  test('the seed uploads through presigned links and stores the downloadable passport: every example answers its 2xx', async () => {
    const bucket = `tryitout-${randomUUID().slice(0, 13)}`;
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    const demo = await startTestDemo({
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
    });
    try {
      await tryEveryExample(demo);
    } finally {
      await demo.close();
    }
  });
});
