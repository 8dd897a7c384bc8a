import { type CompliancePrincipal, exampleIndividualPayload } from '@onboarding-kit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitOnPostgres } from './kit-on-postgres.js';
import { type MigratedDatabase, openMigratedDatabase } from './postgres-test-database.js';
import { rawSqlInspector } from './raw-sql-inspector.js';

let database: MigratedDatabase;
beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(() => database.close());

const compliance: CompliancePrincipal = { kind: 'compliance', complianceId: 'officer-1' };

/** The kit as a host wires it (`kitOnPostgres`), and one individual its manager created. */
const individualOnPostgres = async () => {
  const { kit, manager, upload: uploadBytes } = kitOnPostgres(database.adapters);
  const upload = (filename: string) => uploadBytes(filename, new TextEncoder().encode('%PDF'));
  upload('passport.pdf');
  const client = (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
  return { kit, manager, client, upload };
};

const reviewColumns = async (clientId: string) =>
  (
    await database.pool.query(
      `SELECT resubmission_requirements, terms_acceptance FROM ${database.tables.clients} WHERE id = $1`,
      [clientId],
    )
  ).rows[0];

describe('compliance review depth through the kit on PostgreSQL', () => {
  it('stores the requirements in their column and the event, refuses a bad path, clears them on resubmit', async () => {
    const { kit, manager, client, upload } = await individualOnPostgres();
    const inspect = rawSqlInspector(database.pool, database.tables);
    expect(await reviewColumns(client.id)).toEqual({
      resubmission_requirements: null,
      terms_acceptance: null,
    });

    const refused = await kit.compliance.requestResubmission(compliance, client.id, {
      reason: 'Fix',
      requirements: [{ field: 'company.name', code: 'OTHER', message: 'Not an entity' }],
    });
    expect(refused._unsafeUnwrapErr()).toMatchObject({
      type: 'ValidationFailed',
      parameterErrors: { 'requirements[0].field': [expect.any(String)] },
    });
    expect(await inspect.readStatusHistory(client.id)).toHaveLength(1);

    const requirements = [
      {
        field: 'profile.idDocuments[0]',
        code: 'DOCUMENT_MISMATCH',
        message: 'Not the person on the profile',
      },
      { field: 'sourceOfFunds', code: 'INFORMATION_MISSING', message: 'Say where the money comes from' },
    ];
    const asked = (
      await kit.compliance.requestResubmission(compliance, client.id, { reason: 'Two things', requirements })
    )._unsafeUnwrap();
    expect(asked.resubmissionRequirements).toEqual(requirements);
    expect((await reviewColumns(client.id))?.resubmission_requirements).toEqual(requirements);
    expect((await kit.clients.get(manager, client.id))._unsafeUnwrap().resubmissionRequirements).toEqual(
      requirements,
    );
    const event = (
      await database.pool.query(
        `SELECT body FROM ${database.tables.events} WHERE client_id = $1 AND type = 'client.resubmission_requested'`,
        [client.id],
      )
    ).rows[0];
    expect(event?.body.data.client.resubmissionRequirements).toEqual(requirements);

    upload('passport-2.pdf');
    const resubmitted = (
      await kit.clients.resubmitIndividual(
        manager,
        client.id,
        exampleIndividualPayload({ idDocuments: ['passport-2.pdf'] }),
      )
    )._unsafeUnwrap();
    expect(resubmitted.resubmissionRequirements).toBeNull();
    expect((await reviewColumns(client.id))?.resubmission_requirements).toBeNull();
  });

  it('stores the terms evidence, and refuses a signedAt in the future or before the client, or a bad IP, without signing', async () => {
    const { kit, manager, client } = await individualOnPostgres();
    (await kit.compliance.approve(compliance, client.id))._unsafeUnwrap();
    const evidence = {
      termsVersion: '2026-03',
      signedAt: new Date(Date.now() - 30_000).toISOString(),
      signatoryName: 'Chloé Laurent',
      ipAddress: '198.51.100.23',
      userAgent: 'Mozilla/5.0',
    };
    const future = new Date(Date.now() + 3_600_000).toISOString();
    for (const [body, path] of [
      [{ ...evidence, signedAt: future }, 'signedAt'],
      // Before the client was created (its createdAt as the database keeps it).
      [{ ...evidence, signedAt: new Date(Date.parse(client.createdAt) - 61_000).toISOString() }, 'signedAt'],
      [{ ...evidence, ipAddress: '198.51.100' }, 'ipAddress'],
    ] as const) {
      const error = (await kit.compliance.markTermsSigned(compliance, client.id, body))._unsafeUnwrapErr();
      expect(Object.keys(error.type === 'ValidationFailed' ? (error.parameterErrors ?? {}) : {})).toEqual([
        path,
      ]);
    }
    expect((await kit.clients.get(manager, client.id))._unsafeUnwrap().status).toBe(
      'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
    );

    const signed = (await kit.compliance.markTermsSigned(compliance, client.id, evidence))._unsafeUnwrap();
    expect(signed).toMatchObject({ status: 'VERIFIED', termsAcceptance: evidence });
    expect((await reviewColumns(client.id))?.terms_acceptance).toEqual(evidence);
    expect((await kit.clients.get(manager, client.id))._unsafeUnwrap().termsAcceptance).toEqual(evidence);
  });
});
