import { sha256 } from '@noble/hashes/sha2.js';
import { base58, createBase58check } from '@scure/base';
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import { match } from 'ts-pattern';

// Where money goes: the identifiers of bank accounts (IBAN, BIC, ABA routing number, CLABE) and of
// wallets (blockchain addresses), each checked by its own rule before a payload is accepted.

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

/**
 * A US ABA routing transit number: 9 digits whose weighted sum (weights 3, 7, 1 repeated) is a
 * multiple of 10.
 */
const ABA_WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1] as const;

export const isValidAbaRoutingNumber = (value: string): boolean => {
  if (!/^\d{9}$/.test(value)) return false;
  const sum = ABA_WEIGHTS.reduce((acc, weight, index) => acc + weight * Number(value[index]), 0);
  return sum % 10 === 0;
};

/**
 * A Mexican CLABE: 18 digits, the last a check digit. Each of the first 17 digits is multiplied by
 * 3, 7, 1 (repeated), each product taken mod 10; the check digit is (10 − sum mod 10) mod 10.
 */
const CLABE_WEIGHTS = [3, 7, 1] as const;

export const clabeCheckDigit = (first17Digits: string): number => {
  let sum = 0;
  for (let index = 0; index < 17; index += 1) {
    const weight = CLABE_WEIGHTS[index % 3] ?? 1;
    sum += (weight * Number(first17Digits[index])) % 10;
  }
  return (10 - (sum % 10)) % 10;
};

export const isValidClabe = (value: string): boolean =>
  /^\d{18}$/.test(value) && clabeCheckDigit(value.slice(0, 17)) === Number(value[17]);

/**
 * Address formats of the default blockchains (decisions §7). A host may add networks to its
 * `blockchainNetworks` list; an address on a network with no known format is only required to be
 * a non-empty string.
 */
export const blockchainAddressFormats = ['EVM', 'SOLANA', 'TRON'] as const;
export type BlockchainAddressFormat = (typeof blockchainAddressFormats)[number];

const addressFormatByNetwork: Readonly<Record<string, BlockchainAddressFormat>> = {
  ETHEREUM: 'EVM',
  POLYGON: 'EVM',
  ARBITRUM: 'EVM',
  BASE: 'EVM',
  SOLANA: 'SOLANA',
  TRON: 'TRON',
};

export const addressFormatOf = (network: string): BlockchainAddressFormat | undefined =>
  Object.hasOwn(addressFormatByNetwork, network) ? addressFormatByNetwork[network] : undefined;

/** `0x` and 40 hexadecimal digits; the EIP-55 mixed-case checksum is not enforced (wallets differ). */
export const isValidEvmAddress = (address: string): boolean => /^0x[0-9a-fA-F]{40}$/.test(address);

const decodesTo = (decode: () => Uint8Array, check: (bytes: Uint8Array) => boolean): boolean => {
  // The base58 decoders throw on characters outside the alphabet or a bad checksum.
  try {
    return check(decode());
  } catch {
    return false;
  }
};

/** A Solana public key: base58 that decodes to exactly 32 bytes. */
export const isValidSolanaAddress = (address: string): boolean =>
  address.length >= 32 &&
  address.length <= 44 &&
  decodesTo(
    () => base58.decode(address),
    (bytes) => bytes.length === 32,
  );

const base58check = createBase58check(sha256);
const TRON_ADDRESS_PREFIX = 0x41;

/** A Tron address: base58check (double SHA-256 checksum) of 21 bytes starting with 0x41, so it starts with `T`. */
export const isValidTronAddress = (address: string): boolean =>
  address.length === 34 &&
  address.startsWith('T') &&
  decodesTo(
    () => base58check.decode(address),
    (bytes) => bytes.length === 21 && bytes[0] === TRON_ADDRESS_PREFIX,
  );

export const isValidAddressOfFormat = (format: BlockchainAddressFormat, address: string): boolean =>
  match(format)
    .with('EVM', () => isValidEvmAddress(address))
    .with('SOLANA', () => isValidSolanaAddress(address))
    .with('TRON', () => isValidTronAddress(address))
    .exhaustive();

export const describeAddressFormat = (format: BlockchainAddressFormat): string =>
  match(format)
    .with('EVM', () => '0x followed by 40 hexadecimal digits')
    .with('SOLANA', () => 'a base58 public key of 32 bytes')
    .with('TRON', () => 'a base58check address of 25 bytes starting with T')
    .exhaustive();
