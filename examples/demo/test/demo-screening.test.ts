import { fileURLToPath } from 'node:url';
import { demoIdentities, exampleEntityPayload } from '@onboarding-kit/core';
import { expect, test } from 'vitest';
import { demoCaller } from './support/demo-http.js';
import { startTestDemo } from './support/test-demo.js';

const fixtureList = fileURLToPath(
  new URL('../../../packages/screening-list/fixtures/targets.simple.csv', import.meta.url),
);
const manager = demoIdentities.managerA.apiKey;
const compliance = demoIdentities.compliance.apiKey;

test('SCREENING_LIST: the demo screens a create against the list on its job loop', async () => {
  const demo = await startTestDemo({ SCREENING_LIST: fixtureList });
  try {
    const call = demoCaller(demo.origin);
    const payload = exampleEntityPayload();
    const [natural, legal] = payload.companyDirectorsAndUbos.ubos;
    if (natural === undefined || legal === undefined) expect.fail('two UBOs');
    const body = {
      ...payload,
      companyDirectorsAndUbos: {
        ...payload.companyDirectorsAndUbos,
        ubos: [natural, { ...legal, name: 'Northwind Maritime Trading SA' }],
      },
    };
    const created = await call('POST', '/manager/v1/clients/entities', { key: manager, body });
    expect([created.status, created.body.screening?.status]).toEqual([201, 'PENDING']);

    const deadline = Date.now() + 5_000;
    let screening = created.body.screening;
    while (screening.status === 'PENDING' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      screening = (await call('GET', `/manager/v1/clients/${created.body.id}`, { key: manager })).body
        .screening;
    }
    expect(screening).toMatchObject({
      status: 'POSSIBLE_MATCH',
      hits: [{ field: 'companyDirectorsAndUbos.ubos[1]', matchedName: 'Northwind Maritime Trading S.A.' }],
    });
    const approve = await call('POST', `/compliance/v1/clients/${created.body.id}/approve`, {
      key: compliance,
    });
    expect([approve.status, approve.body.code]).toEqual([409, 'SCREENING_UNRESOLVED']);
  } finally {
    await demo.close();
  }
});

test('SCREENING_LIST naming a missing file stops the start with a message naming it', async () => {
  await expect(startTestDemo({ SCREENING_LIST: '/nonexistent/targets.simple.csv' })).rejects.toThrow(
    /SCREENING_LIST/,
  );
});
