import { z } from 'zod';
import { addressFormatOf, describeAddressFormat, isValidAddressOfFormat } from './account-identifiers.js';

/**
 * Rules that span several fields of one object. They read the value defensively (it may be
 * partly invalid) so that they still run, and report, when an unrelated field is wrong: a payload's
 * problems are all reported at once. Each returns the violations at paths relative to the object.
 */
export type RuleViolation = { readonly path: readonly PropertyKey[]; readonly message: string };
export type CrossFieldRule = (value: unknown) => readonly RuleViolation[];

export const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isAbsent = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

const thirdPartyOwnerFields = [
  'thirdPartyBankAccountOwnerName',
  'thirdPartyBankAccountOwnerAddress',
  'thirdPartyBankAccountOwnerCity',
  'thirdPartyBankAccountOwnerPostalCode',
  'thirdPartyBankAccountOwnerCountryCode',
] as const;
const thirdPartyOwnerDocuments = 'thirdPartyBankAccountOwnerDocuments';

/**
 * A `THIRD_PARTY` account names its owner (documents optional); a `PERSONAL` account carries no
 * owner field. An empty document array on a personal account carries nothing and is accepted.
 */
export const bankAccountOwnerRule: CrossFieldRule = (account) => {
  if (!isRecord(account)) return [];
  if (account.type === 'THIRD_PARTY') {
    return thirdPartyOwnerFields
      .filter((field) => isAbsent(account[field]))
      .map((field) => ({ path: [field], message: 'Required for a THIRD_PARTY bank account' }));
  }
  if (account.type === 'PERSONAL') {
    const documents = account[thirdPartyOwnerDocuments];
    const carried = thirdPartyOwnerFields.filter((field) => account[field] != null);
    const carriesDocuments = documents != null && !(Array.isArray(documents) && documents.length === 0);
    return [...carried, ...(carriesDocuments ? [thirdPartyOwnerDocuments] : [])].map((field) => ({
      path: [field],
      message: 'Only allowed on a THIRD_PARTY bank account; must be null or absent on a PERSONAL one',
    }));
  }
  return [];
};

/** A list value `OTHER` must be described in the matching description field. */
export const otherNeedsDescriptionRule =
  (valueField: string, descriptionField: string): CrossFieldRule =>
  (value) =>
    isRecord(value) && value[valueField] === 'OTHER' && isAbsent(value[descriptionField])
      ? [{ path: [descriptionField], message: `Required when ${valueField} is OTHER` }]
      : [];

/** The address must have the format of its network, when the network's format is known. */
export const blockchainAddressRule: CrossFieldRule = (wallet) => {
  if (!isRecord(wallet)) return [];
  const { blockchainNetwork: network, address } = wallet;
  if (typeof network !== 'string' || typeof address !== 'string' || address === '') return [];
  const format = addressFormatOf(network);
  if (format === undefined || isValidAddressOfFormat(format, address)) return [];
  return [
    { path: ['address'], message: `Must be a valid ${network} address: ${describeAddressFormat(format)}` },
  ];
};

export const AUTHORIZED_SIGNATORY = 'AUTHORIZED_SIGNATORY';

/** An entity is represented by at least one authorized signatory. */
export const authorizedSignatoryRule: CrossFieldRule = (representatives) =>
  Array.isArray(representatives) &&
  !representatives.some(
    (representative) => isRecord(representative) && representative.role === AUTHORIZED_SIGNATORY,
  )
    ? [{ path: [], message: `At least one representative with role ${AUTHORIZED_SIGNATORY} is required` }]
    : [];

/** Names of one upload batch are distinct after NFC normalization; each repeat is reported at its index. */
export const distinctFilenamesRule: CrossFieldRule = (names) => {
  if (!Array.isArray(names)) return [];
  const firstIndexByName = new Map<string, number>();
  const violations: RuleViolation[] = [];
  names.forEach((name: unknown, index) => {
    if (typeof name !== 'string') return;
    const normalized = name.normalize('NFC');
    const firstIndex = firstIndexByName.get(normalized);
    if (firstIndex === undefined) firstIndexByName.set(normalized, index);
    else violations.push({ path: [index], message: `Duplicate filename: same name as item ${firstIndex}` });
  });
  return violations;
};

/**
 * The rule as a zod check that runs whenever the value has the right shape (`object` or array),
 * even when some of its fields already failed, so the rule's violations are reported with theirs.
 */
export const crossFieldCheck = <T>(rule: CrossFieldRule, shape: 'object' | 'array') =>
  z.superRefine<T>(
    (value, context) => {
      for (const violation of rule(value)) {
        context.addIssue({
          code: 'custom',
          path: [...violation.path],
          message: violation.message,
          input: value,
        });
      }
    },
    { when: (payload) => (shape === 'object' ? isRecord(payload.value) : Array.isArray(payload.value)) },
  );
