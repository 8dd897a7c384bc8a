import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';

/**
 * IBANs arrive in print format (`FR76 3000 6000 …`) as often as in electronic format: spaces and
 * hyphens are removed and letters upper-cased before the checksum and country format are checked,
 * and the electronic format is what is stored.
 */
export const toElectronicIban = (value: string): string => electronicFormatIBAN(value) ?? value;

/** Country-specific length and BBAN format plus the mod-97 checksum (ibantools). */
export const isValidIban = (electronicIban: string): boolean => isValidIBAN(electronicIban);

/** A BIC (SWIFT code): 8 or 11 characters whose letters 5–6 are a known country (ibantools). */
export const isValidBic = (value: string): boolean => isValidBIC(value) && value === value.toUpperCase();
