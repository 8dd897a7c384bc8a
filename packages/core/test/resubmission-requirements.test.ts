import { describe, expect, it } from 'vitest';
import { type CompliancePrincipal, exampleEntityPayload, exampleIndividualPayload } from '../src/index.js';
import { MAX_RESUBMISSION_REQUIREMENTS } from '../src/schemas/index.js';
import { aManager, createMemoryKit } from './support/memory-kit.js';

const compliance: CompliancePrincipal = { kind: 'compliance', complianceId: 'officer-1' };

const underReview = async (clientType: 'INDIVIDUAL' | 'ENTITY' = 'INDIVIDUAL') => {
  const setup = createMemoryKit();
  const manager = aManager();
  setup.upload(manager, 'passport.pdf');
  setup.upload(manager, 'kbis.pdf');
  const created =
    clientType === 'INDIVIDUAL'
      ? await setup.kit.clients.createIndividual(manager, exampleIndividualPayload())
      : await setup.kit.clients.createEntity(
          manager,
          exampleEntityPayload({ proofOfIncorporationDocuments: ['kbis.pdf'] }),
        );
  return { ...setup, manager, client: created._unsafeUnwrap() };
};

const passportExpired = {
  field: 'profile.idDocuments[0]',
  code: 'DOCUMENT_EXPIRED',
  message: 'The passport expired in March',
} as const;

describe('resubmission requirements', () => {
  it('are answered while RESUBMISSION_REQUIRED, carried by the event, and cleared by the resubmission', async () => {
    const { kit, manager, client, upload } = await underReview();
    expect(client.resubmissionRequirements).toBeNull();
    const requirements = [
      passportExpired,
      {
        field: 'profile.city',
        code: 'INFORMATION_INCORRECT',
        message: 'Not the city of the proof of address',
      },
    ];
    const asked = (
      await kit.compliance.requestResubmission(compliance, client.id, { reason: 'Two things', requirements })
    )._unsafeUnwrap();
    expect(asked.resubmissionRequirements).toEqual(requirements);
    expect((await kit.clients.get(manager, client.id))._unsafeUnwrap().resubmissionRequirements).toEqual(
      requirements,
    );
    const events = (await kit.events.list(manager, { limit: 100 }))._unsafeUnwrap().data;
    const requested = events.find((event) => event.type === 'client.resubmission_requested');
    expect(requested?.data).toMatchObject({ client: { resubmissionRequirements: requirements } });

    upload(manager, 'passport-2.pdf');
    const resubmitted = (
      await kit.clients.resubmitIndividual(
        manager,
        client.id,
        exampleIndividualPayload({ idDocuments: ['passport-2.pdf'] }),
      )
    )._unsafeUnwrap();
    expect(resubmitted).toMatchObject({ onboardingResubmissionReason: null, resubmissionRequirements: null });
  });

  it('are cleared when the client is deleted while asked', async () => {
    const { kit, manager, client } = await underReview();
    await kit.compliance.requestResubmission(compliance, client.id, {
      reason: 'Fix',
      requirements: [passportExpired],
    });
    const deleted = (await kit.clients.delete(manager, client.id))._unsafeUnwrap();
    expect(deleted).toMatchObject({ status: 'DELETED', resubmissionRequirements: null });
  });

  it('are an empty list when the request names none', async () => {
    const { kit, client } = await underReview();
    const asked = (
      await kit.compliance.requestResubmission(compliance, client.id, { reason: 'Call us' })
    )._unsafeUnwrap();
    expect(asked.resubmissionRequirements).toEqual([]);
  });

  it('refuses a field of another payload type at requirements[i].field, and changes nothing', async () => {
    const { kit, manager, client } = await underReview('ENTITY');
    const error = (
      await kit.compliance.requestResubmission(compliance, client.id, {
        reason: 'Fix it',
        requirements: [
          {
            field: 'companyDirectorsAndUbos.ubos[1].name',
            code: 'INFORMATION_MISSING',
            message: 'Second UBO',
          },
          passportExpired,
        ],
      })
    )._unsafeUnwrapErr();
    expect(error).toEqual({
      type: 'ValidationFailed',
      reason: 'The request body is invalid',
      parameterErrors: { 'requirements[1].field': ["Names no field of an entity's onboarding payload"] },
    });
    expect((await kit.clients.get(manager, client.id))._unsafeUnwrap().status).toBe(
      'ONBOARDING_UNDER_REVIEW',
    );
  });

  it('refuses a bad code, a malformed path, an empty message and too many requirements', async () => {
    const { kit, client } = await underReview();
    const refusal = async (requirements: unknown) => {
      const error = (
        await kit.compliance.requestResubmission(compliance, client.id, { reason: 'Fix it', requirements })
      )._unsafeUnwrapErr();
      return error.type === 'ValidationFailed' ? error : { parameterErrors: { [error.type]: [] } };
    };
    expect(
      Object.keys((await refusal([{ ...passportExpired, code: 'BLURRY' }])).parameterErrors ?? {}),
    ).toEqual(['requirements[0].code']);
    expect(
      Object.keys((await refusal([{ ...passportExpired, field: 'profile..city' }])).parameterErrors ?? {}),
    ).toEqual(['requirements[0].field']);
    expect(
      Object.keys((await refusal([{ ...passportExpired, message: '  ' }])).parameterErrors ?? {}),
    ).toEqual(['requirements[0].message']);
    expect(Object.keys((await refusal([{ ...passportExpired, extra: 1 }])).parameterErrors ?? {})).toEqual([
      'requirements[0].extra',
    ]);
    const tooMany = Array.from({ length: MAX_RESUBMISSION_REQUIREMENTS + 1 }, () => passportExpired);
    expect(Object.keys((await refusal(tooMany)).parameterErrors ?? {})).toEqual(['requirements']);
    const justEnough = tooMany.slice(1);
    expect(
      (
        await kit.compliance.requestResubmission(compliance, client.id, {
          reason: 'Fix',
          requirements: justEnough,
        })
      )._unsafeUnwrap().resubmissionRequirements,
    ).toHaveLength(MAX_RESUBMISSION_REQUIREMENTS);
  });
});
