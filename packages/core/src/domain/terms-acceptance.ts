import { err, ok, type Result } from 'neverthrow';
import { type ValidationFailed, validationFailed } from '../errors.js';
import type { Client, TermsAcceptance } from '../schemas/client-response.js';
import type { TermsSignedBody } from '../schemas/compliance.js';

/**
 * How far ahead of the kit's clock a `signedAt` may be: the signing system's clock is not the
 * kit's, and a signature recorded seconds after it happened must not be refused for their drift.
 */
export const SIGNED_AT_CLOCK_SKEW_MS = 60_000;

/**
 * The evidence as stored: `signedAt` normalized to UTC (`…Z`, milliseconds), absent optional fields
 * null. A `signedAt` before 1970 or later than `now` plus the allowed skew is refused at `signedAt`.
 */
export const toTermsAcceptance = (
  body: TermsSignedBody,
  now: Date,
): Result<TermsAcceptance, ValidationFailed> => {
  const signedAt = new Date(body.signedAt);
  // An offset can carry 0000-01-01 before year 1, which has no four-digit ISO form: not a signature date.
  if (signedAt.getTime() < 0) {
    return err(validationFailed('The request body is invalid', { signedAt: ['Must not be before 1970'] }));
  }
  if (signedAt.getTime() > now.getTime() + SIGNED_AT_CLOCK_SKEW_MS) {
    return err(validationFailed('The request body is invalid', { signedAt: ['Must not be in the future'] }));
  }
  return ok({
    termsVersion: body.termsVersion,
    signedAt: signedAt.toISOString(),
    signatoryName: body.signatoryName,
    ipAddress: body.ipAddress ?? null,
    userAgent: body.userAgent ?? null,
  });
};

/**
 * A signature dated before the client existed (less the allowed skew) is not evidence of these
 * terms for this client: refused at `signedAt`, as a date in the future is. Checked once the client
 * is read, under its lock.
 */
export const signedBeforeCreation = (
  evidence: TermsAcceptance,
  client: Pick<Client, 'createdAt'>,
): ValidationFailed | undefined =>
  new Date(evidence.signedAt).getTime() < new Date(client.createdAt).getTime() - SIGNED_AT_CLOCK_SKEW_MS
    ? validationFailed('The request body is invalid', {
        signedAt: [`Must not be before the client was created (${client.createdAt})`],
      })
    : undefined;
