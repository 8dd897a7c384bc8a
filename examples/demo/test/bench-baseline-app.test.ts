import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { demoIdentities, exampleIndividualPayload, seedDemoData } from '@onboarding-kit/core';
import { createMemoryKit } from '@onboarding-kit/memory';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createBaselineApp } from '../bench-support/baseline-app.js';

const managerA = demoIdentities.managerA.principal;
const server = createServer();
let origin = '';
let createdClient: { id: string; createdAt: string } & Record<string, unknown>;

beforeAll(async () => {
  const kit = createMemoryKit();
  (await seedDemoData(kit.adapters))._unsafeUnwrap();
  kit.adapters.testing.putTemporaryFile(`manager:${managerA.managerId}`, 'id.pdf', new Uint8Array(64));
  createdClient = (
    await kit.clients.createIndividual(managerA, exampleIndividualPayload({ idDocuments: ['id.pdf'] }), {})
  )._unsafeUnwrap() as never;
  server.on('request', createBaselineApp([], createdClient));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const create = (payload: unknown) =>
  fetch(`${origin}/clients/individuals`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });

describe("the HTTP bench's bare route (bench/http-target.ts baseline)", () => {
  test("answers the spec's client the kit created, with a fresh id and timestamps each time", async () => {
    const first = await create(exampleIndividualPayload({ idDocuments: ['bench-1.pdf'] }));
    const second = await create(exampleIndividualPayload({ idDocuments: ['bench-2.pdf'] }));
    expect([first.status, second.status]).toEqual([201, 201]);
    type Answer = { id: string; createdAt: string; updatedAt: string };
    const [one, two] = [(await first.json()) as Answer, (await second.json()) as Answer];
    const { id, createdAt, updatedAt, ...rest } = createdClient;
    for (const answer of [one, two]) {
      expect(Object.keys(answer)).toEqual(Object.keys(createdClient));
      expect(answer).toMatchObject(rest);
      expect(answer.id).not.toBe(id);
      expect(answer.updatedAt).toBe(answer.createdAt);
      expect(Date.parse(answer.createdAt)).toBeGreaterThanOrEqual(Date.parse(createdAt));
    }
    expect(one.id).not.toBe(two.id);
  });

  test('refuses a payload the schema refuses, as a 400', async () => {
    const refused = await create({ ...exampleIndividualPayload(), individualProfile: null });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
