import { z } from 'zod';
import { isOnboardingPathSyntax } from '../validation/onboarding-field-path.js';
import {
  hasLetter,
  isStorableText,
  NAME_WITHOUT_LETTER_MESSAGE,
  UNSTORABLE_TEXT_MESSAGE,
} from '../validation/parse-request.js';
import { dateTimeSchema, resubmissionRequirementCodes, screeningDecisions } from './client-response.js';
import { MAX_ARRAY_ITEMS, MAX_STRING_LENGTH } from './onboarding-payloads.js';

/** At most this many requirements per resubmission request. */
export const MAX_RESUBMISSION_REQUIREMENTS = 50;
/** `termsVersion` is an identifier (`2026-03`, `v4.2`), not prose. */
export const MAX_TERMS_VERSION_LENGTH = 100;

/** Free text as every request body takes it: trimmed, non-empty, bounded, storable. */
const freeText = (max = MAX_STRING_LENGTH) =>
  z
    .string()
    .trim()
    .min(1, 'Required, must not be empty')
    .max(max, `Must be at most ${max} characters`)
    .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE);

const resubmissionRequirementBodySchema = z.strictObject({
  // Whether the path names a field of the client's payload type is checked once the client is read.
  field: z
    .string()
    .max(MAX_STRING_LENGTH, `Must be at most ${MAX_STRING_LENGTH} characters`)
    .refine(
      isOnboardingPathSyntax,
      'Must be a JSON path of the onboarding payload, such as profile.idDocuments[0]',
    )
    .meta({
      description:
        "A JSON path of the client's onboarding payload (individual or entity), as parameterErrors " +
        `writes them; an index may name an item not sent yet, up to ${MAX_ARRAY_ITEMS - 1}.`,
      examples: ['profile.idDocuments[0]', 'companyDirectorsAndUbos.ubos[1].name'],
    }),
  code: z.enum(resubmissionRequirementCodes),
  message: freeText(),
});

/** Body of the compliance team's `POST /clients/{id}/request-resubmission`. */
export const requestResubmissionBodySchema = z
  .strictObject({
    reason: freeText(),
    requirements: z
      .array(resubmissionRequirementBodySchema)
      .max(MAX_RESUBMISSION_REQUIREMENTS, `Must have at most ${MAX_RESUBMISSION_REQUIREMENTS} items`)
      .optional(),
  })
  .meta({
    id: 'RequestResubmission',
    examples: [
      {
        reason: 'The proof of address is older than three months: please upload a recent one.',
        requirements: [
          {
            field: 'bankAccounts[0].label',
            code: 'INFORMATION_INCORRECT',
            message: 'Name the account as it appears on its statement.',
          },
        ],
      },
    ],
  });
export type RequestResubmissionBody = z.infer<typeof requestResubmissionBodySchema>;

/**
 * Body of `POST /clients/{id}/terms-signed`, optional as a whole: the evidence of the signature.
 * `signedAt` must not be in the future (checked against the kit's clock by the service).
 */
export const termsSignedBodySchema = z
  .strictObject({
    termsVersion: freeText(MAX_TERMS_VERSION_LENGTH),
    signedAt: dateTimeSchema,
    // An empty or unstorable name is only reported as such.
    signatoryName: freeText().refine(
      (name) => name === '' || !isStorableText(name) || hasLetter(name),
      NAME_WITHOUT_LETTER_MESSAGE,
    ),
    ipAddress: z
      .union([z.ipv4(), z.ipv6()], { error: 'Must be an IPv4 or IPv6 address' })
      .nullable()
      .optional(),
    userAgent: freeText().nullable().optional(),
  })
  .meta({
    id: 'TermsSigned',
    examples: [
      {
        termsVersion: '2026-03',
        signedAt: '2026-03-02T09:30:00.000Z',
        signatoryName: 'Ada Lovelace',
        ipAddress: '203.0.113.7',
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
      },
    ],
  });
export type TermsSignedBody = z.infer<typeof termsSignedBodySchema>;

/** Body of `POST /clients/{id}/screening-hits/{hitId}/resolve`: compliance's decision on one hit. */
export const resolveScreeningHitBodySchema = z
  .strictObject({
    decision: z.enum(screeningDecisions),
    reason: freeText(),
  })
  .meta({
    id: 'ResolveScreeningHit',
    examples: [
      {
        decision: 'DISMISSED',
        reason: 'Different date of birth and nationality than the listed person.',
      },
    ],
  });
export type ResolveScreeningHitBody = z.infer<typeof resolveScreeningHitBodySchema>;
