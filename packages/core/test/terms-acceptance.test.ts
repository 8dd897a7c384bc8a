import { describe, expect, it } from 'vitest';
import type { CompliancePrincipal } from '../src/index.js';
import { SIGNED_AT_CLOCK_SKEW_MS } from '../src/schemas/index.js';
import { aCreatedIndividual } from './support/memory-kit.js';

const compliance: CompliancePrincipal = { kind: 'compliance', complianceId: 'officer-1' };

const awaitingSignature = async () => {
  const created = await aCreatedIndividual();
  (await created.kit.compliance.approve(compliance, created.client.id))._unsafeUnwrap();
  return created;
};

const evidence = {
  termsVersion: '2026-03',
  signedAt: '2026-03-01T10:00:30+01:00',
  signatoryName: 'Chloé Laurent',
  ipAddress: '203.0.113.7',
  userAgent: 'Mozilla/5.0',
};

describe('terms acceptance evidence', () => {
  it('is stored with signedAt in UTC and answered as termsAcceptance; null until signed', async () => {
    const { kit, manager, client } = await awaitingSignature();
    expect(client.termsAcceptance).toBeNull();
    const signed = (await kit.compliance.markTermsSigned(compliance, client.id, evidence))._unsafeUnwrap();
    expect(signed).toMatchObject({
      status: 'VERIFIED',
      termsAcceptance: { ...evidence, signedAt: '2026-03-01T09:00:30.000Z' },
    });
    expect((await kit.clients.get(manager, client.id))._unsafeUnwrap().termsAcceptance).toEqual(
      signed.termsAcceptance,
    );
  });

  it('is optional: no body signs without evidence; ipAddress and userAgent may be left out', async () => {
    const first = await awaitingSignature();
    const bare = (await first.kit.compliance.markTermsSigned(compliance, first.client.id))._unsafeUnwrap();
    expect(bare).toMatchObject({ status: 'VERIFIED', termsAcceptance: null });

    const second = await awaitingSignature();
    const { ipAddress: _ip, userAgent: _agent, ...minimal } = evidence;
    const signed = (
      await second.kit.compliance.markTermsSigned(compliance, second.client.id, minimal)
    )._unsafeUnwrap();
    expect(signed.termsAcceptance).toMatchObject({ ipAddress: null, userAgent: null });
  });

  it('refuses a future signedAt (beyond the skew), a bad IP and unbounded text, each at its field', async () => {
    const { kit, clock, client } = await awaitingSignature();
    const now = clock.now().getTime();
    const refusedAt = async (body: unknown) => {
      const error = (await kit.compliance.markTermsSigned(compliance, client.id, body))._unsafeUnwrapErr();
      return error.type === 'ValidationFailed' ? Object.keys(error.parameterErrors ?? {}) : [error.type];
    };
    const at = (ms: number) => new Date(ms).toISOString();
    expect(await refusedAt({ ...evidence, signedAt: at(now + SIGNED_AT_CLOCK_SKEW_MS + 1) })).toEqual([
      'signedAt',
    ]);
    expect(await refusedAt({ ...evidence, signedAt: '0000-01-01T00:00:00+01:00' })).toEqual(['signedAt']);
    // Before the client existed (beyond the skew): 1970, or a minute and a millisecond before its creation.
    const created = new Date(client.createdAt).getTime();
    for (const signedAt of ['1970-01-01T00:00:00Z', at(created - SIGNED_AT_CLOCK_SKEW_MS - 1)]) {
      expect(await refusedAt({ ...evidence, signedAt }), signedAt).toEqual(['signedAt']);
    }
    expect(await refusedAt({ ...evidence, signedAt: '2026-02-30T10:00:00Z' })).toEqual(['signedAt']);
    for (const ipAddress of ['256.1.1.1', '10.0.0', 'fe80::1%eth0', 'localhost', ' 203.0.113.7', '']) {
      expect(await refusedAt({ ...evidence, ipAddress }), ipAddress).toEqual(['ipAddress']);
    }
    expect(await refusedAt({ ...evidence, termsVersion: 'v'.repeat(101) })).toEqual(['termsVersion']);
    expect(await refusedAt({ ...evidence, userAgent: 'a'.repeat(1001) })).toEqual(['userAgent']);
    expect(await refusedAt({ ...evidence, signatoryName: 'a\u0000b' })).toEqual(['signatoryName']);
    expect(await refusedAt({ ...evidence, signedBy: 'x' })).toEqual(['signedBy']);
    expect(await refusedAt({})).toEqual(['termsVersion', 'signedAt', 'signatoryName']);

    expect(
      (
        await kit.compliance.markTermsSigned(compliance, client.id, {
          ...evidence,
          signedAt: '1970-01-01T00:00:00Z',
        })
      )._unsafeUnwrapErr(),
    ).toMatchObject({
      parameterErrors: { signedAt: [`Must not be before the client was created (${client.createdAt})`] },
    });
    // Within the skew, and an IPv6 address, are accepted.
    const signed = await kit.compliance.markTermsSigned(compliance, client.id, {
      ...evidence,
      signedAt: at(now + SIGNED_AT_CLOCK_SKEW_MS),
      ipAddress: '2001:db8::7',
    });
    expect(signed._unsafeUnwrap().termsAcceptance?.signedAt).toBe(at(now + SIGNED_AT_CLOCK_SKEW_MS));
  });
});
