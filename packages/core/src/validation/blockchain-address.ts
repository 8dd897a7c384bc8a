import { sha256 } from '@noble/hashes/sha2.js';
import { base58, createBase58check } from '@scure/base';
import { match } from 'ts-pattern';

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
