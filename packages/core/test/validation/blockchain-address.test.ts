import { sha256 } from '@noble/hashes/sha2.js';
import { base58, createBase58check } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { exampleIndividualPayload } from '../../src/schemas/example-payloads.js';
import {
  createOnboardingPayloadSchemas,
  defaultOnboardingPayloadSchemas,
} from '../../src/schemas/payload-schemas.js';
import {
  addressFormatOf,
  isValidEvmAddress,
  isValidSolanaAddress,
  isValidTronAddress,
} from '../../src/validation/account-identifiers.js';
import { withReferenceLists } from '../../src/validation/reference-lists.js';
import { parameterErrorsOf, parsedValueOf } from './parameter-errors-of.js';

const base58check = createBase58check(sha256);
const tronAddressWithPrefix = (prefix: number) => {
  const bytes = new Uint8Array(21).fill(9);
  bytes[0] = prefix;
  return base58check.encode(bytes);
};

const evm = '0x52908400098527886E0F7030069857D2E4169EE7';
const solana = 'So11111111111111111111111111111111111111112';
const tron = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

describe('blockchain address checks', () => {
  it('EVM: 0x and 40 hexadecimal digits, any case', () => {
    expect(isValidEvmAddress(evm)).toBe(true);
    expect(isValidEvmAddress(evm.toLowerCase())).toBe(true);
    expect(isValidEvmAddress(evm.slice(0, -1))).toBe(false);
    expect(isValidEvmAddress(`${evm}0`)).toBe(false);
    expect(isValidEvmAddress(evm.replace('0x', '0X'))).toBe(false);
    expect(isValidEvmAddress(`0x${'g'.repeat(40)}`)).toBe(false);
  });

  it('Solana: base58 decoding to exactly 32 bytes', () => {
    expect(isValidSolanaAddress(solana)).toBe(true);
    expect(isValidSolanaAddress('11111111111111111111111111111111')).toBe(true);
    expect(isValidSolanaAddress(base58.encode(new Uint8Array(31).fill(7)))).toBe(false);
    expect(isValidSolanaAddress(base58.encode(new Uint8Array(33).fill(7)))).toBe(false);
    expect(isValidSolanaAddress(`${solana.slice(0, -1)}0`)).toBe(false);
    expect(isValidSolanaAddress(evm)).toBe(false);
  });

  it('Tron: base58check of 21 bytes + checksum, first byte 0x41 (so it starts with T)', () => {
    expect(isValidTronAddress(tron)).toBe(true);
    expect(isValidTronAddress(tronAddressWithPrefix(0x41))).toBe(true);
    expect(isValidTronAddress(`${tron.slice(0, -1)}u`)).toBe(false);
    // 0x42 also encodes to a T… address: the prefix byte itself is checked.
    expect(tronAddressWithPrefix(0x42).startsWith('T')).toBe(true);
    expect(isValidTronAddress(tronAddressWithPrefix(0x42))).toBe(false);
    expect(isValidTronAddress(solana)).toBe(false);
  });

  it('maps the default networks to their formats, and no other name', () => {
    expect(['ETHEREUM', 'POLYGON', 'ARBITRUM', 'BASE'].map(addressFormatOf)).toEqual([
      'EVM',
      'EVM',
      'EVM',
      'EVM',
    ]);
    expect(addressFormatOf('SOLANA')).toBe('SOLANA');
    expect(addressFormatOf('TRON')).toBe('TRON');
    expect(addressFormatOf('BITCOIN')).toBeUndefined();
    expect(addressFormatOf('toString')).toBeUndefined();
  });
});

const withWallet = (blockchainNetwork: string, address: string) => ({
  ...exampleIndividualPayload(),
  blockchainWallets: [{ label: null, blockchainNetwork, address }],
});

describe('blockchain wallets in a payload', () => {
  const schema = defaultOnboardingPayloadSchemas.individualPayload;

  it.each([
    ['ETHEREUM', evm],
    ['POLYGON', evm],
    ['ARBITRUM', evm],
    ['BASE', evm],
    ['SOLANA', solana],
    ['TRON', tron],
  ])('accepts a %s address', (network, address) => {
    expect(parsedValueOf(schema, withWallet(network, address)).blockchainWallets[0]?.address).toBe(address);
  });

  it.each([
    ['ETHEREUM', solana, 'Must be a valid ETHEREUM address: 0x followed by 40 hexadecimal digits'],
    ['BASE', tron, 'Must be a valid BASE address: 0x followed by 40 hexadecimal digits'],
    ['SOLANA', evm, 'Must be a valid SOLANA address: a base58 public key of 32 bytes'],
    ['TRON', evm, 'Must be a valid TRON address: a base58check address of 25 bytes starting with T'],
  ])('refuses on %s the address %s at blockchainWallets[0].address', (network, address, message) => {
    const errors = parameterErrorsOf(schema, withWallet(network, address));
    expect(errors).toEqual({ 'blockchainWallets[0].address': [message] });
  });

  it('refuses an unsupported network at blockchainNetwork', () => {
    expect(
      parameterErrorsOf(schema, withWallet('BITCOIN', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')),
    ).toEqual({
      'blockchainWallets[0].blockchainNetwork': [
        'Must be one of ETHEREUM, POLYGON, ARBITRUM, BASE, SOLANA, TRON',
      ],
    });
  });

  it('a network a host adds without a known format only needs a non-empty address', () => {
    const host = createOnboardingPayloadSchemas(
      withReferenceLists({ blockchainNetworks: ['ETHEREUM', 'BITCOIN'] }),
    ).individualPayload;
    expect(
      parsedValueOf(host, withWallet('BITCOIN', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')),
    ).toBeTruthy();
    expect(parameterErrorsOf(host, withWallet('BITCOIN', ''))).toEqual({
      'blockchainWallets[0].address': ['Required, must not be empty'],
    });
    expect(Object.keys(parameterErrorsOf(host, withWallet('SOLANA', solana)))).toEqual([
      'blockchainWallets[0].blockchainNetwork',
    ]);
  });
});
