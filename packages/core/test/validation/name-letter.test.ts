import { describe, expect, it } from 'vitest';
import { termsSignedBodySchema } from '../../src/schemas/compliance.js';
import { exampleEntityPayload, exampleIndividualPayload } from '../../src/schemas/example-payloads.js';
import { defaultOnboardingPayloadSchemas } from '../../src/schemas/payload-schemas.js';
import { parameterErrorsOf, parsedValueOf } from './parameter-errors-of.js';

const { individualPayload, entityPayload } = defaultOnboardingPayloadSchemas;

// biome-ignore lint/suspicious/noExplicitAny: the tests set names at any depth
type LoosePayload = Record<string, any>;

/** Strings that name nobody: punctuation, a dash, digits, emoji, marks and format characters alone. */
const letterless = [
  '.',
  '-',
  '—',
  "'",
  '123',
  '١٢٣', // Arabic-Indic digits
  '😀',
  '🇫🇷',
  '👨‍👩‍👧', // an emoji joined by zero-width joiners
  '\u200F', // a lone right-to-left mark
  '\u200B', // a zero-width space
  '\u00AD', // a soft hyphen
  '\u0301', // a combining acute accent with nothing to sit on
  '. - .',
  '_#!',
];

/** Names of every script and shape a person or a company may have. */
const withLetters = [
  'Ng',
  "O'Neil",
  'ᴅᴍɪᴛʀɪ ꜱᴏᴋᴏʟᴏᴠ',
  'Соколов',
  '李',
  'محمد',
  'X Æ A-12',
  '\u200FSokolov',
  '3M',
];

const individualNameFields: readonly [string, (payload: LoosePayload, name: string) => void][] = [
  ['profile.firstName', (p, name) => (p.profile.firstName = name)],
  ['profile.lastName', (p, name) => (p.profile.lastName = name)],
  ['profile.companyName', (p, name) => (p.profile.companyName = name)],
  [
    'bankAccounts[0].thirdPartyBankAccountOwnerName',
    (p, name) =>
      Object.assign(p.bankAccounts[0], {
        type: 'THIRD_PARTY',
        thirdPartyBankAccountOwnerName: name,
        thirdPartyBankAccountOwnerAddress: '3 place Bellecour',
        thirdPartyBankAccountOwnerCity: 'Lyon',
        thirdPartyBankAccountOwnerPostalCode: '69002',
        thirdPartyBankAccountOwnerCountryCode: 'FR',
      }),
  ],
];
const entityNameFields: readonly [string, (payload: LoosePayload, name: string) => void][] = [
  ['company.name', (p, name) => (p.company.name = name)],
  ['representatives[0].firstName', (p, name) => (p.representatives[0].firstName = name)],
  ['representatives[0].lastName', (p, name) => (p.representatives[0].lastName = name)],
  [
    'companyDirectorsAndUbos.directors[0].name',
    (p, name) => (p.companyDirectorsAndUbos.directors[0].name = name),
  ],
  ['companyDirectorsAndUbos.ubos[0].name', (p, name) => (p.companyDirectorsAndUbos.ubos[0].name = name)],
  ['companyDirectorsAndUbos.ubos[1].name', (p, name) => (p.companyDirectorsAndUbos.ubos[1].name = name)],
  [
    'bankAccounts[0].thirdPartyBankAccountOwnerName',
    (p, name) =>
      Object.assign(p.bankAccounts[0], {
        type: 'THIRD_PARTY',
        thirdPartyBankAccountOwnerName: name,
        thirdPartyBankAccountOwnerAddress: '1 Bahnhofstrasse',
        thirdPartyBankAccountOwnerCity: 'Zürich',
        thirdPartyBankAccountOwnerPostalCode: '8001',
        thirdPartyBankAccountOwnerCountryCode: 'CH',
      }),
  ],
];

const cases = [
  ...individualNameFields.map(([path, set]) => ({
    path,
    schema: individualPayload,
    payload: (name: string) => {
      const payload: LoosePayload = exampleIndividualPayload();
      set(payload, name);
      return payload;
    },
  })),
  ...entityNameFields.map(([path, set]) => ({
    path,
    schema: entityPayload,
    payload: (name: string) => {
      const payload: LoosePayload = exampleEntityPayload();
      set(payload, name);
      return payload;
    },
  })),
];

describe('every name of a payload holds a letter (it is screened)', () => {
  it.each(cases)('$path: a name without a letter is refused there, alone', ({ path, schema, payload }) => {
    for (const name of letterless) {
      expect(parameterErrorsOf(schema, payload(name)), JSON.stringify(name)).toEqual({
        [path]: ['Must contain a letter'],
      });
    }
  });

  it.each(cases)('$path: a name with a letter of any script is accepted', ({ schema, payload }) => {
    for (const name of withLetters) parsedValueOf(schema, payload(name));
  });

  it.each(cases)(
    '$path: a name holding a character that reorders it on screen is refused there',
    ({ path, schema, payload }) => {
      // U+202E shows `volokoS` as `Sokolov` to a reviewer, while the screening reads `volokos`.
      for (const name of [
        '\u202EvolokoS',
        'Dmitri \u202DSokolov\u202C',
        '\u2067Sokolov\u2069',
        '\u202ASok\u202Bolov',
      ]) {
        expect(parameterErrorsOf(schema, payload(name)), JSON.stringify(name)).toEqual({
          [path]: [
            'Must not contain bidirectional embedding, override or isolate characters (U+202A-U+202E, U+2066-U+2069)',
          ],
        });
      }
      // The marks that move no letter stay allowed (a right-to-left mark beside a Latin name, the Arabic letter mark).
      for (const name of ['\u200FSokolov', 'محمد\u061C', 'Sokolov\u200E'])
        parsedValueOf(schema, payload(name));
    },
  );

  it('an unstorable name is reported as unstorable only', () => {
    const payload: LoosePayload = exampleEntityPayload();
    payload.company.name = '\ud800';
    payload.companyDirectorsAndUbos.directors[0].name = '-\u0000';
    const unstorable = 'Must not contain NUL or unpaired surrogate characters';
    expect(parameterErrorsOf(entityPayload, payload)).toEqual({
      'company.name': [unstorable],
      'companyDirectorsAndUbos.directors[0].name': [unstorable],
    });
  });

  it('every name problem of a payload is reported at once, blank and empty ones as such', () => {
    const payload: LoosePayload = exampleEntityPayload();
    payload.company.name = '.';
    payload.representatives[0].firstName = '   ';
    payload.representatives[0].lastName = '';
    payload.companyDirectorsAndUbos.directors[0].name = '😀';
    expect(parameterErrorsOf(entityPayload, payload)).toEqual({
      'company.name': ['Must contain a letter'],
      'representatives[0].firstName': ['Must not be blank'],
      'representatives[0].lastName': ['Required, must not be empty'],
      'companyDirectorsAndUbos.directors[0].name': ['Must contain a letter'],
    });
  });

  it("the terms' signatory name holds a letter too", () => {
    const evidence = {
      termsVersion: '2026-03',
      signedAt: '2026-03-02T09:30:00.000Z',
      signatoryName: 'Ada Lovelace',
    };
    parsedValueOf(termsSignedBodySchema, evidence);
    for (const name of letterless.filter((name) => name.trim() !== '')) {
      expect(parameterErrorsOf(termsSignedBodySchema, { ...evidence, signatoryName: name })).toEqual({
        signatoryName: ['Must contain a letter'],
      });
    }
    expect(parameterErrorsOf(termsSignedBodySchema, { ...evidence, signatoryName: ' ' })).toEqual({
      signatoryName: ['Required, must not be empty'],
    });
  });
});
