import { describe, expect, it } from 'vitest';
import { type CompliancePrincipal, exampleEntityPayload, exampleIndividualPayload } from '../src/index.js';
import { aCreatedIndividual, aManager, createMemoryKit } from './support/memory-kit.js';

const compliance: CompliancePrincipal = { kind: 'compliance', complianceId: 'officer-1' };
const refusedAt = (paths: string[]) => ({
  type: 'ValidationFailed',
  reason: 'The request body is invalid',
  parameterErrors: Object.fromEntries(paths.map((path) => [path, ['Must not be in the future']])),
});

describe("a date of birth after the kit's today is refused at its field (the kit's clock)", () => {
  it('refuses an individual born after tomorrow, and creates nothing', async () => {
    const { kit, clock, upload, adapters } = createMemoryKit();
    const manager = aManager();
    upload(manager, 'passport.pdf');
    const payload = exampleIndividualPayload();
    const created = await kit.clients.createIndividual(manager, {
      ...payload,
      profile: { ...payload.profile, dateOfBirth: '2026-03-03' },
    });
    expect(created._unsafeUnwrapErr()).toEqual(refusedAt(['profile.dateOfBirth']));
    expect(JSON.parse(adapters.testing.dump()).tables.clients).toEqual([]);
    expect(adapters.testing.readTemporaryFile(`manager:${manager.managerId}`, 'passport.pdf')).not.toBeNull();
    // Tomorrow in UTC is accepted (it is already tomorrow somewhere), and the date above once the clock has passed it.
    const tomorrow = await kit.clients.createIndividual(manager, {
      ...payload,
      profile: { ...payload.profile, dateOfBirth: '2026-03-02' },
    });
    expect(tomorrow._unsafeUnwrap().individualProfile?.dateOfBirth).toBe('2026-03-02');
    clock.advance(2 * 86_400_000);
    // The passport went to the client above: another one for the next create.
    upload(manager, 'passport.pdf');
    const later = await kit.clients.createIndividual(manager, {
      ...payload,
      profile: { ...payload.profile, dateOfBirth: '2026-03-03' },
    });
    expect(later._unsafeUnwrap().individualProfile?.dateOfBirth).toBe('2026-03-03');
  });

  it('names every person of an entity born in the future', async () => {
    const { kit } = createMemoryKit();
    const payload = exampleEntityPayload();
    const [representative] = payload.representatives;
    const [director] = payload.companyDirectorsAndUbos.directors;
    const [natural, legal] = payload.companyDirectorsAndUbos.ubos;
    if (representative === undefined || director === undefined || natural?.typeOfPerson !== 'NATURAL')
      throw new Error('the example entity has a representative, a director and a natural UBO first');
    const created = await kit.clients.createEntity(aManager(), {
      ...payload,
      representatives: [{ ...representative, dateOfBirth: '2030-01-01' }],
      companyDirectorsAndUbos: {
        directors: [director, { ...director, dateOfBirth: '2099-12-31' }],
        ubos: [{ ...natural, dateOfBirth: '2027-05-05' }, ...(legal === undefined ? [] : [legal])],
      },
    });
    expect(created._unsafeUnwrapErr()).toEqual(
      refusedAt([
        'representatives[0].dateOfBirth',
        'companyDirectorsAndUbos.directors[1].dateOfBirth',
        'companyDirectorsAndUbos.ubos[0].dateOfBirth',
      ]),
    );
  });

  it('refuses a resubmission with one, and leaves the client as it was', async () => {
    const { kit, manager, client, upload } = await aCreatedIndividual();
    (
      await kit.compliance.requestResubmission(compliance, client.id, { reason: 'Unreadable' })
    )._unsafeUnwrap();
    upload(manager, 'passport-2.pdf');
    const payload = exampleIndividualPayload({ idDocuments: ['passport-2.pdf'] });
    const resubmitted = await kit.clients.resubmitIndividual(manager, client.id, {
      ...payload,
      profile: { ...payload.profile, dateOfBirth: '2027-01-01' },
    });
    expect(resubmitted._unsafeUnwrapErr()).toEqual(refusedAt(['profile.dateOfBirth']));
    expect((await kit.clients.get(manager, client.id))._unsafeUnwrap().status).toBe('RESUBMISSION_REQUIRED');
  });
});
