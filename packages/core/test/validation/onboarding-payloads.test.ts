import { describe, expect, it } from 'vitest';
import { exampleEntityPayload, exampleIndividualPayload } from '../../src/schemas/example-payloads.js';
import { MAX_ARRAY_ITEMS, MAX_STRING_LENGTH } from '../../src/schemas/onboarding-payloads.js';
import {
  createOnboardingPayloadSchemas,
  defaultOnboardingPayloadSchemas,
} from '../../src/schemas/payload-schemas.js';
import { withReferenceLists } from '../../src/validation/reference-lists.js';
import { parameterErrorsOf, parsedValueOf } from './parameter-errors-of.js';

const { individualPayload, entityPayload } = defaultOnboardingPayloadSchemas;

// biome-ignore lint/suspicious/noExplicitAny: the tests break payloads on purpose, at any depth and with any type
type LoosePayload = Record<string, any>;

/** The example individual with `change` applied to a mutable copy. */
const individual = (change: (payload: LoosePayload) => void) => {
  const payload: LoosePayload = exampleIndividualPayload();
  change(payload);
  return payload;
};
const entity = (change: (payload: LoosePayload) => void) => {
  const payload: LoosePayload = exampleEntityPayload();
  change(payload);
  return payload;
};

describe('strict objects', () => {
  it('reports an unknown property at its path, at any depth', () => {
    const errors = parameterErrorsOf(
      individualPayload,
      individual((p) => {
        p.nickname = 'Cam';
        p.profile.middleName = 'Anne';
        p.bankAccounts[0].swift = 'BNPAFRPP';
        p.blockchainWallets[0].memo = 'x';
      }),
    );
    expect(errors).toEqual({
      nickname: ['Unknown property'],
      'profile.middleName': ['Unknown property'],
      'bankAccounts[0].swift': ['Unknown property'],
      'blockchainWallets[0].memo': ['Unknown property'],
    });
  });
});

describe('string fields', () => {
  it('a `string` field is required, non-empty, not blank and a string', () => {
    expect(
      parameterErrorsOf(
        individualPayload,
        individual((p) => delete p.profile.firstName),
      ),
    ).toEqual({
      'profile.firstName': ['Required'],
    });
    expect(
      parameterErrorsOf(
        individualPayload,
        individual((p) => (p.profile.firstName = '')),
      ),
    ).toEqual({
      'profile.firstName': ['Required, must not be empty'],
    });
    expect(
      parameterErrorsOf(
        individualPayload,
        individual((p) => (p.profile.city = '  \t')),
      ),
    ).toEqual({
      'profile.city': ['Must not be blank'],
    });
    expect(
      parameterErrorsOf(
        individualPayload,
        individual((p) => (p.profile.postalCode = 75004)),
      ),
    ).toEqual({
      'profile.postalCode': ['Must be a string'],
    });
    expect(
      parameterErrorsOf(
        individualPayload,
        individual((p) => (p.profile.address = null)),
      ),
    ).toEqual({
      'profile.address': ['Must be a string'],
    });
  });

  it('a `string or null` field may be null or absent, not another type', () => {
    parsedValueOf(
      individualPayload,
      individual((p) => (p.bankAccounts[0].label = null)),
    );
    parsedValueOf(
      individualPayload,
      individual((p) => delete p.bankAccounts[0].label),
    );
    parsedValueOf(
      individualPayload,
      individual((p) => delete p.profile.occupationDescription),
    );
    expect(
      parameterErrorsOf(
        individualPayload,
        individual((p) => (p.bankAccounts[0].label = 7)),
      ),
    ).toEqual({
      'bankAccounts[0].label': ['Must be a string or null'],
    });
  });

  it(`strings are at most ${MAX_STRING_LENGTH} characters`, () => {
    parsedValueOf(
      individualPayload,
      individual((p) => (p.profile.address = 'a'.repeat(MAX_STRING_LENGTH))),
    );
    const tooLong = 'a'.repeat(MAX_STRING_LENGTH + 1);
    expect(
      parameterErrorsOf(
        individualPayload,
        individual((p) => {
          p.profile.address = tooLong;
          p.blockchainWallets[0].label = tooLong;
        }),
      ),
    ).toEqual({
      'profile.address': ['Must be at most 1000 characters'],
      'blockchainWallets[0].label': ['Must be at most 1000 characters'],
    });
  });

  it('no string holds a NUL or an unpaired surrogate, `string` or `string or null` alike', () => {
    const unstorable = 'Must not contain NUL or unpaired surrogate characters';
    expect(
      parameterErrorsOf(
        entityPayload,
        entity((p) => {
          p.company.name = 'Acme\u0000';
          p.company.registeredAddress = 'lone \ud800 high';
          p.company.placeOfEffectiveBusiness = '\udc00 lone low';
        }),
      ),
    ).toEqual({
      'company.name': [unstorable],
      'company.registeredAddress': [unstorable],
      'company.placeOfEffectiveBusiness': [unstorable],
    });
    // A pair is one character (an emoji), not two lone halves.
    parsedValueOf(
      entityPayload,
      entity((p) => (p.company.name = 'Acme 🎉')),
    );
  });
});

describe('arrays', () => {
  it(`hold at most ${MAX_ARRAY_ITEMS} items`, () => {
    const wallet = exampleIndividualPayload().blockchainWallets[0];
    parsedValueOf(
      individualPayload,
      individual((p) => (p.blockchainWallets = Array(MAX_ARRAY_ITEMS).fill(wallet))),
    );
    expect(
      parameterErrorsOf(
        individualPayload,
        individual((p) => {
          p.blockchainWallets = Array(MAX_ARRAY_ITEMS + 1).fill(wallet);
          p.profile.proofOfAmlDocuments = Array.from({ length: 51 }, (_, index) => `aml-${index}.pdf`);
        }),
      ),
    ).toEqual({
      blockchainWallets: ['Must have at most 50 items'],
      'profile.proofOfAmlDocuments': ['Must have at most 50 items'],
    });
  });

  it('document arrays are required arrays of valid filenames, NFC-normalized', () => {
    expect(
      parameterErrorsOf(
        individualPayload,
        individual((p) => delete p.sourceOfFunds.taxNoticeDocuments),
      ),
    ).toEqual({
      'sourceOfFunds.taxNoticeDocuments': ['Required'],
    });
    expect(
      parameterErrorsOf(
        individualPayload,
        individual((p) => (p.profile.idDocuments = ['ok.pdf', '../secret', 3])),
      ),
    ).toEqual({
      'profile.idDocuments[1]': ['Filename must not contain / or \\'],
      'profile.idDocuments[2]': ['Must be a string'],
    });
    const parsed = parsedValueOf(
      individualPayload,
      exampleIndividualPayload({ idDocuments: ['pie\u0300ce.pdf'] }),
    );
    expect(parsed.profile.idDocuments).toEqual(['pi\u00e8ce.pdf']);
  });
});

describe('reference lists', () => {
  it('country codes are ISO 3166-1 alpha-2, upper case', () => {
    parsedValueOf(
      individualPayload,
      individual((p) => (p.profile.countryCode = 'JP')),
    );
    for (const code of ['ZZ', 'fr', 'FRA', 'XK']) {
      expect(
        parameterErrorsOf(
          individualPayload,
          individual((p) => (p.profile.countryCode = code)),
        ),
      ).toEqual({
        'profile.countryCode': ['Must be one of the supported ISO 3166-1 alpha-2 country codes'],
      });
    }
  });

  it('fiat currencies are ISO 4217 currencies, not metals, funds or test codes', () => {
    parsedValueOf(
      individualPayload,
      individual((p) => (p.bankAccounts[0].fiatCurrency = 'JPY')),
    );
    for (const code of ['XAU', 'XTS', 'USN', 'eur', 'BTC']) {
      expect(
        parameterErrorsOf(
          individualPayload,
          individual((p) => (p.bankAccounts[0].fiatCurrency = code)),
        ),
      ).toEqual({
        'bankAccounts[0].fiatCurrency': ['Must be one of the supported ISO 4217 fiat currency codes'],
      });
    }
  });

  it('short lists name their values in the message', () => {
    expect(
      parameterErrorsOf(
        individualPayload,
        individual((p) => (p.sourceOfFunds.globalWealthRange = 'LOTS')),
      ),
    ).toEqual({
      'sourceOfFunds.globalWealthRange': [
        'Must be one of LESS_THAN_50K, FROM_50K_TO_250K, FROM_250K_TO_1M, FROM_1M_TO_5M, MORE_THAN_5M',
      ],
    });
  });

  it('a host list replaces the default one, and the other lists stay the defaults', () => {
    const host = createOnboardingPayloadSchemas(
      withReferenceLists({ countryCodes: ['FR', 'XK'], occupations: ['PILOT', 'OTHER'] }),
    ).individualPayload;
    parsedValueOf(
      host,
      individual((p) => (p.profile.occupation = 'PILOT')),
    );
    parsedValueOf(
      host,
      individual((p) => {
        p.profile.occupation = 'PILOT';
        p.profile.countryCode = 'XK';
      }),
    );
    expect(
      parameterErrorsOf(
        host,
        individual((p) => {
          p.profile.countryCode = 'DE';
          p.sourceOfFunds.sourceOfFunds = 'LOTTERY';
        }),
      ),
    ).toEqual({
      'profile.countryCode': ['Must be one of FR, XK'],
      'profile.occupation': ['Must be one of PILOT, OTHER'],
      'sourceOfFunds.sourceOfFunds': [
        'Must be one of SALARY, BUSINESS_INCOME, INVESTMENTS, SAVINGS, INHERITANCE, SALE_OF_PROPERTY, CRYPTO_ASSETS, OTHER',
      ],
    });
  });
});

describe('reference list fields', () => {
  it('answer what a string field answers before naming the list', () => {
    const cases: [unknown, string][] = [
      [undefined, 'Required'],
      [3, 'Must be a string'],
      ['', 'Required, must not be empty'],
      ['   ', 'Must not be blank'],
      ['x'.repeat(MAX_STRING_LENGTH + 1), `Must be at most ${MAX_STRING_LENGTH} characters`],
      ['\u0000', 'Must not contain NUL or unpaired surrogate characters'],
      [
        'employee',
        'Must be one of EMPLOYEE, SELF_EMPLOYED, BUSINESS_OWNER, RETIRED, STUDENT, UNEMPLOYED, OTHER',
      ],
    ];
    for (const [value, message] of cases) {
      expect(
        parameterErrorsOf(
          individualPayload,
          individual((p) => (p.profile.occupation = value)),
        ),
      ).toEqual({ 'profile.occupation': [message] });
    }
  });

  it('a nullable one accepts null and absence, and names null in its message', () => {
    const withOwnerCountry = (value: unknown) =>
      individual((p) => (p.bankAccounts[0].thirdPartyBankAccountOwnerCountryCode = value));
    parsedValueOf(individualPayload, withOwnerCountry(null));
    parsedValueOf(individualPayload, withOwnerCountry(undefined));
    // The example account is PERSONAL: the owner rule reports the field too.
    expect(
      parameterErrorsOf(individualPayload, withOwnerCountry(7))[
        'bankAccounts[0].thirdPartyBankAccountOwnerCountryCode'
      ],
    ).toContain('Must be a string or null');
  });
});

describe('email and phone', () => {
  it('an email is RFC-style', () => {
    parsedValueOf(
      individualPayload,
      individual((p) => (p.profile.email = 'first.last+tag@sub.example.co.uk')),
    );
    for (const email of ['camille', 'camille@', '@example.com', 'a b@example.com', '']) {
      expect(
        parameterErrorsOf(
          individualPayload,
          individual((p) => (p.profile.email = email)),
        ),
      ).toEqual({
        'profile.email': ['Must be a valid email address'],
      });
    }
    expect(
      parameterErrorsOf(
        individualPayload,
        individual((p) => delete p.profile.email),
      ),
    ).toEqual({
      'profile.email': ['Required'],
    });
  });

  it('a phone is a possible international number', () => {
    parsedValueOf(
      individualPayload,
      individual((p) => (p.profile.phone = '+14155552671')),
    );
    for (const phone of ['0612345678', 'hello', '+33', '33612345678']) {
      expect(
        parameterErrorsOf(
          individualPayload,
          individual((p) => (p.profile.phone = phone)),
        ),
      ).toEqual({
        'profile.phone': ['Must be an international phone number, such as +33612345678'],
      });
    }
  });

  it('a representative has a valid email and phone too', () => {
    expect(
      parameterErrorsOf(
        entityPayload,
        entity((p) => {
          p.representatives[0].email = 'helene';
          p.representatives[0].phone = '0612345678';
        }),
      ),
    ).toEqual({
      'representatives[0].email': ['Must be a valid email address'],
      'representatives[0].phone': ['Must be an international phone number, such as +33612345678'],
    });
  });
});

const thirdPartyOwner = {
  thirdPartyBankAccountOwnerName: 'Jean Durand',
  thirdPartyBankAccountOwnerAddress: '3 place Bellecour',
  thirdPartyBankAccountOwnerCity: 'Lyon',
  thirdPartyBankAccountOwnerPostalCode: '69002',
  thirdPartyBankAccountOwnerCountryCode: 'FR',
};

describe('bank account owner', () => {
  it('a THIRD_PARTY account with its owner is valid, with or without documents', () => {
    parsedValueOf(
      individualPayload,
      individual((p) => Object.assign(p.bankAccounts[0], { type: 'THIRD_PARTY', ...thirdPartyOwner })),
    );
    parsedValueOf(
      individualPayload,
      individual((p) =>
        Object.assign(p.bankAccounts[0], {
          type: 'THIRD_PARTY',
          ...thirdPartyOwner,
          thirdPartyBankAccountOwnerDocuments: ['owner-id.pdf'],
        }),
      ),
    );
  });

  it('a THIRD_PARTY account needs the owner name, address, city, postal code and country', () => {
    const errors = parameterErrorsOf(
      individualPayload,
      individual((p) => (p.bankAccounts[0].type = 'THIRD_PARTY')),
    );
    expect(errors).toEqual(
      Object.fromEntries(
        Object.keys(thirdPartyOwner).map((field) => [
          `bankAccounts[0].${field}`,
          ['Required for a THIRD_PARTY bank account'],
        ]),
      ),
    );
    expect(
      parameterErrorsOf(
        individualPayload,
        individual((p) =>
          Object.assign(p.bankAccounts[0], {
            type: 'THIRD_PARTY',
            ...thirdPartyOwner,
            thirdPartyBankAccountOwnerName: ' ',
            thirdPartyBankAccountOwnerCountryCode: 'ZZ',
          }),
        ),
      ),
    ).toEqual({
      'bankAccounts[0].thirdPartyBankAccountOwnerName': ['Required for a THIRD_PARTY bank account'],
      'bankAccounts[0].thirdPartyBankAccountOwnerCountryCode': [
        'Must be one of the supported ISO 3166-1 alpha-2 country codes',
      ],
    });
  });

  it('a PERSONAL account carries no owner field (null or absent is fine)', () => {
    parsedValueOf(
      individualPayload,
      individual((p) =>
        Object.assign(
          p.bankAccounts[0],
          Object.fromEntries(Object.keys(thirdPartyOwner).map((field) => [field, null])),
          { thirdPartyBankAccountOwnerDocuments: null },
        ),
      ),
    );
    parsedValueOf(
      individualPayload,
      individual((p) => (p.bankAccounts[0].thirdPartyBankAccountOwnerDocuments = [])),
    );
    const message = 'Only allowed on a THIRD_PARTY bank account; must be null or absent on a PERSONAL one';
    expect(
      parameterErrorsOf(
        individualPayload,
        individual((p) =>
          Object.assign(p.bankAccounts[0], {
            thirdPartyBankAccountOwnerName: 'Jean Durand',
            thirdPartyBankAccountOwnerCountryCode: 'FR',
            thirdPartyBankAccountOwnerDocuments: ['owner-id.pdf'],
          }),
        ),
      ),
    ).toEqual({
      'bankAccounts[0].thirdPartyBankAccountOwnerName': [message],
      'bankAccounts[0].thirdPartyBankAccountOwnerCountryCode': [message],
      'bankAccounts[0].thirdPartyBankAccountOwnerDocuments': [message],
    });
  });
});

describe('OTHER needs its description', () => {
  it.each([
    ['profile', 'occupation', 'occupationDescription'],
    ['profile', 'jobBusinessSector', 'jobBusinessSectorDescription'],
    ['sourceOfFunds', 'sourceOfFunds', 'sourceOfFundsDescription'],
  ])('%s.%s OTHER requires %s', (section, field, description) => {
    parsedValueOf(
      individualPayload,
      individual((p) => Object.assign(p[section], { [field]: 'OTHER', [description]: 'Described here' })),
    );
    for (const missing of [null, undefined, '', '  ']) {
      expect(
        parameterErrorsOf(
          individualPayload,
          individual((p) => {
            p[section][field] = 'OTHER';
            if (missing === undefined) delete p[section][description];
            else p[section][description] = missing;
          }),
        ),
      ).toEqual({ [`${section}.${description}`]: [`Required when ${field} is OTHER`] });
    }
  });

  it('company.businessSector OTHER requires company.businessSectorDescription', () => {
    parsedValueOf(
      entityPayload,
      entity((p) =>
        Object.assign(p.company, { businessSector: 'OTHER', businessSectorDescription: 'Bakery robots' }),
      ),
    );
    expect(
      parameterErrorsOf(
        entityPayload,
        entity((p) => (p.company.businessSector = 'OTHER')),
      ),
    ).toEqual({
      'company.businessSectorDescription': ['Required when businessSector is OTHER'],
    });
  });

  it('purposeOfOnboarding OTHER is accepted as it is (no description field in the spec)', () => {
    parsedValueOf(
      individualPayload,
      individual((p) => (p.profile.purposeOfOnboarding = 'OTHER')),
    );
    parsedValueOf(
      entityPayload,
      entity((p) => (p.company.purposeOfOnboarding = 'OTHER')),
    );
  });
});

describe('minimums', () => {
  it('an individual names at least one identity document', () => {
    expect(parameterErrorsOf(individualPayload, exampleIndividualPayload({ idDocuments: [] }))).toEqual({
      'profile.idDocuments': ['At least one identity document is required'],
    });
  });

  it('an entity has at least one AUTHORIZED_SIGNATORY representative', () => {
    const message = 'At least one representative with role AUTHORIZED_SIGNATORY is required';
    expect(
      parameterErrorsOf(
        entityPayload,
        entity((p) => (p.representatives[0].role = 'OPERATOR')),
      ),
    ).toEqual({
      representatives: [message],
    });
    expect(
      parameterErrorsOf(
        entityPayload,
        entity((p) => (p.representatives = [])),
      ),
    ).toEqual({
      representatives: [message],
    });
    const operator = { ...exampleEntityPayload().representatives[0], role: 'OPERATOR' };
    parsedValueOf(
      entityPayload,
      entity((p) => p.representatives.unshift(operator)),
    );
  });

  it('an entity has at least one director', () => {
    expect(
      parameterErrorsOf(
        entityPayload,
        entity((p) => (p.companyDirectorsAndUbos.directors = [])),
      ),
    ).toEqual({
      'companyDirectorsAndUbos.directors': ['At least one director is required'],
    });
  });

  it('entity bank accounts and wallets are optional and validated when present', () => {
    parsedValueOf(
      entityPayload,
      entity((p) => {
        delete p.bankAccounts;
        delete p.blockchainWallets;
      }),
    );
    expect(
      parameterErrorsOf(
        entityPayload,
        entity((p) => (p.bankAccounts[0].identifiers.iban = 'FR7630006000011234567890180')),
      ),
    ).toEqual({ 'bankAccounts[0].identifiers.iban': ['Must be a valid IBAN (country format and checksum)'] });
  });

  it('ubos are NATURAL or LEGAL, each with its own fields', () => {
    expect(
      parameterErrorsOf(
        entityPayload,
        entity((p) => {
          p.companyDirectorsAndUbos.ubos[0].typeOfPerson = 'TRUST';
          p.companyDirectorsAndUbos.ubos[1].idDocuments = [];
        }),
      ),
    ).toEqual({
      'companyDirectorsAndUbos.ubos[0].typeOfPerson': ['Must be one of NATURAL, LEGAL'],
      'companyDirectorsAndUbos.ubos[1].idDocuments': ['Unknown property'],
    });
  });
});

describe('every problem is reported at once', () => {
  it('a bad email and a PERSONAL account carrying owner fields are both reported', () => {
    const errors = parameterErrorsOf(
      individualPayload,
      individual((p) => {
        p.profile.email = 'not-an-email';
        p.bankAccounts[0].thirdPartyBankAccountOwnerName = 'Jean Durand';
      }),
    );
    expect(Object.keys(errors).sort()).toEqual([
      'bankAccounts[0].thirdPartyBankAccountOwnerName',
      'profile.email',
    ]);
  });

  it('cross-field rules still run when a field of the same object is wrong', () => {
    const errors = parameterErrorsOf(
      individualPayload,
      individual((p) => {
        p.profile.occupation = 'OTHER';
        p.profile.phone = 'hello';
        p.profile.unknown = true;
        p.bankAccounts[0].type = 'THIRD_PARTY';
        p.bankAccounts[0].identifiers.bic = 'nope';
        p.bankAccounts[0].fiatCurrency = 12;
        p.blockchainWallets[0].label = 5;
        p.blockchainWallets[0].address = '0x1234';
        p.sourceOfFunds = 'SALARY';
      }),
    );
    expect(Object.keys(errors).sort()).toEqual(
      [
        'profile.occupationDescription',
        'profile.phone',
        'profile.unknown',
        'bankAccounts[0].identifiers.bic',
        'bankAccounts[0].fiatCurrency',
        ...Object.keys(thirdPartyOwner).map((field) => `bankAccounts[0].${field}`),
        'blockchainWallets[0].label',
        'blockchainWallets[0].address',
        'sourceOfFunds',
      ].sort(),
    );
    expect(errors.sourceOfFunds).toEqual(['Must be an object']);
  });

  it('entity rules are reported together with field errors', () => {
    const errors = parameterErrorsOf(
      entityPayload,
      entity((p) => {
        p.representatives[0].email = 'x';
        p.representatives[0].role = 'OPERATOR';
        p.companyDirectorsAndUbos.directors = [];
        p.company.businessSector = 'OTHER';
        p.company.registeredAddressCountryCode = 'France';
      }),
    );
    expect(Object.keys(errors).sort()).toEqual(
      [
        'company.businessSectorDescription',
        'company.registeredAddressCountryCode',
        'companyDirectorsAndUbos.directors',
        'representatives',
        'representatives[0].email',
      ].sort(),
    );
  });
});
