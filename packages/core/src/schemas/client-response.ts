import { z } from 'zod';

/** Wire shapes of the Client response (spec 2.1–2.6). Document fields carry document keys. */

export const clientStatuses = [
  'ONBOARDING_IN_PROGRESS',
  'ONBOARDING_UNDER_REVIEW',
  'RESUBMISSION_REQUIRED',
  'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
  'VERIFIED',
  'DELETED',
] as const;
export const clientStatusSchema = z.enum(clientStatuses);
export type ClientStatus = z.infer<typeof clientStatusSchema>;

export const clientTypes = ['INDIVIDUAL', 'ENTITY'] as const;
export const clientTypeSchema = z.enum(clientTypes);
export type ClientType = z.infer<typeof clientTypeSchema>;

export const representativeRoles = ['AUTHORIZED_SIGNATORY', 'OPERATOR'] as const;
export const representativeRoleSchema = z.enum(representativeRoles);
export type RepresentativeRole = z.infer<typeof representativeRoleSchema>;

export const dateTimeSchema = z.iso.datetime({ offset: true });
const documentKeys = z.array(z.string());

export const companySchema = z.object({
  name: z.string(),
  registrationNumber: z.string().nullable(),
  registeredAddress: z.string().nullable(),
  registeredAddressCity: z.string().nullable(),
  registeredAddressPostalCode: z.string().nullable(),
  registeredAddressCountryCode: z.string().nullable(),
  placeOfEffectiveBusiness: z.string().nullable(),
  businessSector: z.string().nullable(),
  businessSectorDescription: z.string().nullable(),
  turnover: z.string().nullable(),
  turnoverDocuments: documentKeys,
  lastTaxNoticeDocuments: documentKeys,
  purposeOfOnboarding: z.string().nullable(),
  proofOfIncorporationDocuments: documentKeys,
  memorandumOfAssociationDocuments: documentKeys,
  registryOfDirectorsAndShareholdersDocuments: documentKeys,
  structureChartOfShareholdersDocuments: documentKeys,
  proofOfAmlDocuments: documentKeys,
});
export type Company = z.infer<typeof companySchema>;

export const companyRepresentativeSchema = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  /** `YYYY-MM-DD`; null when the payload gave none. Screened as evidence beside the name. */
  dateOfBirth: z.string().nullable(),
  email: z.string(),
  phone: z.string().nullable(),
  jobTitle: z.string().nullable(),
  supportingDocuments: documentKeys,
  role: representativeRoleSchema,
  createdAt: dateTimeSchema,
  updatedAt: dateTimeSchema,
  deletedAt: dateTimeSchema.nullable(),
});
export type CompanyRepresentative = z.infer<typeof companyRepresentativeSchema>;

export const directorSchema = z.object({
  name: z.string(),
  /** `YYYY-MM-DD`; null when the payload gave none. Screened as evidence beside the name. */
  dateOfBirth: z.string().nullable(),
  idDocuments: documentKeys,
  proofOfAddressDocuments: documentKeys,
  proofOfAmlDocuments: documentKeys,
});
export const naturalUboSchema = z.object({
  name: z.string(),
  typeOfPerson: z.literal('NATURAL'),
  /** `YYYY-MM-DD`; null when the payload gave none. Screened as evidence beside the name. */
  dateOfBirth: z.string().nullable(),
  idDocuments: documentKeys,
  proofOfAddressDocuments: documentKeys,
  proofOfAmlDocuments: documentKeys,
});
export const legalUboSchema = z.object({
  name: z.string(),
  typeOfPerson: z.literal('LEGAL'),
  proofOfIncorporationDocuments: documentKeys,
  memorandumOfAssociationDocuments: documentKeys,
  registryOfDirectorsAndShareholdersDocuments: documentKeys,
  proofOfAmlDocuments: documentKeys,
});
export const companyDirectorsAndUbosSchema = z.object({
  directors: z.array(directorSchema),
  ubos: z.array(z.discriminatedUnion('typeOfPerson', [naturalUboSchema, legalUboSchema])),
});
export type CompanyDirectorsAndUbos = z.infer<typeof companyDirectorsAndUbosSchema>;

export const individualProfileSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  /** `YYYY-MM-DD`; null when the payload gave none. Screened as evidence beside the name. */
  dateOfBirth: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  postalCode: z.string().nullable(),
  countryCode: z.string().nullable(),
  occupation: z.string().nullable(),
  occupationDescription: z.string().nullable(),
  companyName: z.string().nullable(),
  jobBusinessSector: z.string().nullable(),
  jobBusinessSectorDescription: z.string().nullable(),
  purposeOfOnboarding: z.string().nullable(),
  idDocuments: documentKeys,
  proofOfAddressDocuments: documentKeys,
  proofOfAmlDocuments: documentKeys,
});
export type IndividualProfile = z.infer<typeof individualProfileSchema>;

export const individualSourceOfFundsSchema = z.object({
  sourceOfFunds: z.string().nullable(),
  sourceOfFundsDescription: z.string().nullable(),
  annualRevenueRange: z.string().nullable(),
  globalWealthRange: z.string().nullable(),
  sourceOfFundsDocuments: documentKeys,
  proofOfTaxResidencyDocuments: documentKeys,
  taxNoticeDocuments: documentKeys,
  supportingOccupationDocuments: documentKeys,
});
export type IndividualSourceOfFunds = z.infer<typeof individualSourceOfFundsSchema>;

export const bankAccountIdentifierFormats = [
  'IBAN',
  'SWIFT',
  'SWIFT_MX',
  'ROUTING_NUMBER',
  'SORT_CODE',
  'IN_INR',
  'AU',
] as const;
export type BankAccountIdentifierFormat = (typeof bankAccountIdentifierFormats)[number];

export const bankAccountIdentifiersResponseSchema = z.discriminatedUnion('format', [
  z.object({ format: z.literal('IBAN'), iban: z.string(), bic: z.string() }),
  z.object({ format: z.literal('SWIFT'), accountNumber: z.string(), swift: z.string() }),
  z.object({ format: z.literal('SWIFT_MX'), clabe: z.string(), bic: z.string() }),
  z.object({ format: z.literal('ROUTING_NUMBER'), accountNumber: z.string(), routingNumber: z.string() }),
  z.object({ format: z.literal('SORT_CODE'), accountNumber: z.string(), sortCode: z.string() }),
  z.object({ format: z.literal('IN_INR'), accountNumber: z.string(), ifsc: z.string() }),
  z.object({ format: z.literal('AU'), accountNumber: z.string(), bsb: z.string() }),
]);
export type BankAccountIdentifiers = z.infer<typeof bankAccountIdentifiersResponseSchema>;

export const bankAccountTypes = ['PERSONAL', 'THIRD_PARTY'] as const;

/** A bank account as stored and returned: the payload's fields with an id and a creation date. */
export const bankAccountResponseSchema = z.object({
  id: z.uuid(),
  label: z.string().nullable(),
  fiatCurrency: z.string(),
  countryCode: z.string(),
  type: z.enum(bankAccountTypes),
  identifiers: bankAccountIdentifiersResponseSchema,
  thirdPartyBankAccountOwnerName: z.string().nullable(),
  thirdPartyBankAccountOwnerAddress: z.string().nullable(),
  thirdPartyBankAccountOwnerCity: z.string().nullable(),
  thirdPartyBankAccountOwnerPostalCode: z.string().nullable(),
  thirdPartyBankAccountOwnerCountryCode: z.string().nullable(),
  thirdPartyBankAccountOwnerDocuments: documentKeys.nullable(),
  createdAt: dateTimeSchema,
});
export type BankAccount = z.infer<typeof bankAccountResponseSchema>;

export const blockchainWalletResponseSchema = z.object({
  id: z.uuid(),
  label: z.string().nullable(),
  blockchainNetwork: z.string(),
  address: z.string(),
  createdAt: dateTimeSchema,
});
export type BlockchainWallet = z.infer<typeof blockchainWalletResponseSchema>;

/** Why compliance asks for a field again (decisions §12). */
export const resubmissionRequirementCodes = [
  'DOCUMENT_UNREADABLE',
  'DOCUMENT_EXPIRED',
  'DOCUMENT_MISMATCH',
  'INFORMATION_MISSING',
  'INFORMATION_INCORRECT',
  'OTHER',
] as const;
export const resubmissionRequirementCodeSchema = z.enum(resubmissionRequirementCodes);
export type ResubmissionRequirementCode = z.infer<typeof resubmissionRequirementCodeSchema>;

/** One thing compliance asks the manager to fix: `field` is a JSON path of the onboarding payload. */
export const resubmissionRequirementSchema = z
  .object({ field: z.string(), code: resubmissionRequirementCodeSchema, message: z.string() })
  .meta({ id: 'ResubmissionRequirement' });
export type ResubmissionRequirement = z.infer<typeof resubmissionRequirementSchema>;

/** The evidence of the client's signature of the terms, as compliance recorded it. */
export const termsAcceptanceSchema = z
  .object({
    termsVersion: z.string(),
    signedAt: dateTimeSchema,
    signatoryName: z.string(),
    ipAddress: z.string().nullable(),
    userAgent: z.string().nullable(),
  })
  .meta({ id: 'TermsAcceptance' });
export type TermsAcceptance = z.infer<typeof termsAcceptanceSchema>;

/** What the screening of a client's people and companies found so far (decisions §12). */
export const screeningStatuses = ['PENDING', 'CLEAR', 'POSSIBLE_MATCH', 'ERROR'] as const;
export const screeningDecisions = ['CONFIRMED', 'DISMISSED'] as const;

/** Compliance's decision on one hit. */
export const screeningResolutionSchema = z
  .object({
    decision: z.enum(screeningDecisions),
    reason: z.string(),
    /** The compliance id of whoever decided. */
    actor: z.string(),
    at: dateTimeSchema,
  })
  .meta({ id: 'ScreeningResolution' });
export type ScreeningResolution = z.infer<typeof screeningResolutionSchema>;

/** How one word of the screened name was paired with one of the listed name. */
export const screeningTokenMatchSchema = z
  .object({
    /** The screened name's word(s), normalized (two when the list joins them: `vladimir putin`). */
    subject: z.string(),
    /** The listed name's word(s), normalized. */
    listed: z.string(),
    /** The same word, alike by transliteration or sound, a spelling variant, an initial, joined or split words, one legal form. */
    kind: z.enum(['EXACT', 'PHONETIC', 'SPELLING', 'INITIAL', 'JOINED', 'LEGAL_FORM']),
    /** How alike the two are, 0..1. */
    similarity: z.number(),
    /** The pair's share of the names' weight, 0..1: a rare word weighs much, `mohammed` or `llc` little. */
    weight: z.number(),
  })
  .meta({ id: 'ScreeningTokenMatch' });
export type ScreeningTokenMatch = z.infer<typeof screeningTokenMatchSchema>;

/** Why a name scored what it did: the pairs of words, the words left over, the country and birth-date evidence. */
export const screeningExplanationSchema = z
  .object({
    /** A readable account of the score. */
    summary: z.string(),
    tokens: z.array(screeningTokenMatchSchema),
    /** Words of the client's name paired with none of the listed name's. */
    unmatchedSubject: z.array(z.string()),
    /** Words of the listed name paired with none of the client's. */
    unmatchedListed: z.array(z.string()),
    /** The client's country beside the entry's; null when the client gave none. */
    country: z
      .object({
        subject: z.string(),
        listed: z.array(z.string()),
        /** MISMATCH lowered the score (it never hides an exact name match); UNKNOWN: the entry names no country. */
        outcome: z.enum(['MATCH', 'MISMATCH', 'UNKNOWN']),
      })
      .nullable(),
    /**
     * The client's birth date beside the entry's; null when the client gave none (or the hit was
     * recorded before the kit took birth dates). Compared by year, one year apart still a MATCH.
     */
    birthDate: z
      .object({
        subject: z.string(),
        /** As the list gives them; unreadable ones are ignored. */
        listed: z.array(z.string()),
        /** MISMATCH lowered the score (it never hides an exact name match); UNKNOWN: the entry gives no readable birth date. */
        outcome: z.enum(['MATCH', 'MISMATCH', 'UNKNOWN']),
      })
      .nullable(),
  })
  .meta({ id: 'ScreeningExplanation' });
export type ScreeningExplanation = z.infer<typeof screeningExplanationSchema>;

/** The listed entry a hit resembles, as the list gives it. */
export const screeningListEntrySchema = z
  .object({
    /** The entry's main name on the list. */
    name: z.string(),
    aliases: z.array(z.string()),
    /** Every list (dataset) naming the entry. */
    datasets: z.array(z.string()),
    /** ISO 3166-1 alpha-2 codes, as the list gives them. */
    countries: z.array(z.string()),
    /** As the list gives them: `1961-04-12`, `1955`. */
    birthDates: z.array(z.string()),
    /** `Person`, `Company`, `Organization`… when the list says. */
    schema: z.string().nullable(),
  })
  .meta({ id: 'ScreeningListEntry' });
export type ScreeningListEntry = z.infer<typeof screeningListEntrySchema>;

/** A name of the client that resembles a listed one: `field` is its JSON path in the payload. */
export const screeningHitSchema = z
  .object({
    id: z.uuid(),
    field: z.string(),
    name: z.string(),
    listName: z.string(),
    matchedName: z.string(),
    /** How alike the two names are, from 0 to 1. */
    score: z.number(),
    /** The listed entry's id on its list, stable across list versions. */
    targetId: z.string(),
    /** Why the score is what it is; null when the provider does not say. */
    explanation: screeningExplanationSchema.nullable(),
    /** The listed entry; null when the provider does not say. */
    entry: screeningListEntrySchema.nullable(),
    resolution: screeningResolutionSchema.nullable(),
  })
  .meta({ id: 'ScreeningHit' });
export type ScreeningHit = z.infer<typeof screeningHitSchema>;

export const screeningSchema = z
  .object({
    status: z.enum(screeningStatuses),
    /** When the last screening ran to its end; null while none has. */
    screenedAt: dateTimeSchema.nullable(),
    hits: z.array(screeningHitSchema),
  })
  .meta({ id: 'Screening' });
export type Screening = z.infer<typeof screeningSchema>;

/** The compliance reviewer a client is assigned to, and since when (the review queue's assignment). */
export const reviewAssignmentSchema = z
  .object({
    /** The compliance id of the reviewer (a key's registered `complianceId`, or the console's reviewer). */
    complianceId: z.string(),
    assignedAt: dateTimeSchema,
  })
  .meta({ id: 'ReviewAssignment' });
export type ReviewAssignment = z.infer<typeof reviewAssignmentSchema>;

/** Why the client cannot take its next review step now (compare Stripe's `requirements.currently_due`). */
export const clientRequirementCodes = [
  'SCREENING_PENDING',
  'SCREENING_FAILED',
  'SCREENING_HIT_UNRESOLVED',
  'SCREENING_HIT_CONFIRMED',
  'RESUBMISSION_OUTSTANDING',
  'TERMS_NOT_SIGNED',
  'CLIENT_DELETED',
] as const;
export const clientRequirementCodeSchema = z.enum(clientRequirementCodes);
export type ClientRequirementCode = z.infer<typeof clientRequirementCodeSchema>;

export const clientRequirementSchema = z
  .object({
    code: clientRequirementCodeSchema,
    /** The JSON path of the payload field concerned (a hit's person, a requirement's field), else null. */
    field: z.string().nullable(),
    /** The screening hit concerned, else null. */
    hitId: z.string().nullable(),
    /** What is awaited, in words. */
    message: z.string(),
  })
  .meta({ id: 'ClientRequirement' });
export type ClientRequirement = z.infer<typeof clientRequirementSchema>;

export const clientSchema = z
  .object({
    id: z.uuid(),
    status: clientStatusSchema,
    clientType: clientTypeSchema,
    company: companySchema.nullable(),
    companyRepresentatives: z.array(companyRepresentativeSchema).nullable(),
    companyDirectorsAndUbos: companyDirectorsAndUbosSchema.nullable(),
    individualProfile: individualProfileSchema.nullable(),
    individualSourceOfFunds: individualSourceOfFundsSchema.nullable(),
    onboardingResubmissionReason: z.string().nullable(),
    /** An array while the client is RESUBMISSION_REQUIRED (empty when none was given), else null. */
    resubmissionRequirements: z.array(resubmissionRequirementSchema).nullable(),
    bankAccounts: z.array(bankAccountResponseSchema),
    blockchainWallets: z.array(blockchainWalletResponseSchema),
    /** Null until the terms are signed with evidence (terms-signed takes it optionally). */
    termsAcceptance: termsAcceptanceSchema.nullable(),
    /** Null when the kit screens nobody (no screening provider). */
    screening: screeningSchema.nullable(),
    createdAt: dateTimeSchema,
    updatedAt: dateTimeSchema,
    deletedAt: dateTimeSchema.nullable(),
    /** When the personal data of the deleted client was erased (decisions §11), else null. */
    redactedAt: dateTimeSchema.nullable(),
    /** The reviewer the client is assigned to in the review queue, else null. */
    assignee: reviewAssignmentSchema.nullable(),
    /**
     * What stands in the way of the client's next step, computed by the kit from the client: in
     * ONBOARDING_UNDER_REVIEW, what makes an approval refused; in WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE,
     * the terms and what makes them refused; in RESUBMISSION_REQUIRED, the manager's resubmission; empty when nothing is awaited.
     */
    requirements: z.array(clientRequirementSchema),
  })
  .meta({ id: 'Client' });
export type Client = z.infer<typeof clientSchema>;

export const clientListResponseSchema = z
  .object({ data: z.array(clientSchema), nextCursor: z.string().nullable() })
  .meta({ id: 'ClientList' });
export type ClientListResponse = z.infer<typeof clientListResponseSchema>;

export const statusHistoryEntrySchema = z.object({
  from: clientStatusSchema.nullable(),
  to: clientStatusSchema,
  reason: z.string().nullable(),
  actor: z.string(),
  at: dateTimeSchema,
});
export type StatusHistoryEntry = z.infer<typeof statusHistoryEntrySchema>;
export const statusHistoryResponseSchema = z.array(statusHistoryEntrySchema).meta({ id: 'StatusHistory' });
