import { describe, expect, it } from 'vitest';
import { iso3166CountryCodes } from '../../src/validation/iso-3166-country-codes.js';
import {
  iso4217CurrencyCodes,
  iso4217FiatCurrencyCodes,
  iso4217FundCodes,
  iso4217NonCurrencyCodes,
} from '../../src/validation/iso-4217-currency-codes.js';
import { defaultReferenceLists, withReferenceLists } from '../../src/validation/reference-lists.js';

describe('ISO lists', () => {
  it('ISO 3166-1 alpha-2 holds the 249 assigned codes, distinct, without the user-assigned XK', () => {
    expect(iso3166CountryCodes).toHaveLength(249);
    expect(new Set(iso3166CountryCodes).size).toBe(249);
    expect(iso3166CountryCodes.every((code) => /^[A-Z]{2}$/.test(code))).toBe(true);
    expect(iso3166CountryCodes).toEqual(
      expect.arrayContaining(['FR', 'US', 'GB', 'MX', 'IN', 'AU', 'AQ', 'SS', 'BQ']),
    );
    expect(iso3166CountryCodes).not.toContain('XK');
    expect(iso3166CountryCodes).not.toContain('UK');
  });

  it('ISO 4217 fiat currencies are the active codes without funds, metals, units and test codes', () => {
    expect(new Set(iso4217CurrencyCodes).size).toBe(iso4217CurrencyCodes.length);
    expect(iso4217CurrencyCodes.every((code) => /^[A-Z]{3}$/.test(code))).toBe(true);
    expect(
      [...iso4217FundCodes, ...iso4217NonCurrencyCodes].every((code) => iso4217CurrencyCodes.includes(code)),
    ).toBe(true);
    expect(iso4217FiatCurrencyCodes).toHaveLength(
      iso4217CurrencyCodes.length - iso4217FundCodes.length - iso4217NonCurrencyCodes.length,
    );
    expect(iso4217FiatCurrencyCodes).toEqual(
      expect.arrayContaining([
        'EUR',
        'USD',
        'GBP',
        'MXN',
        'INR',
        'AUD',
        'JPY',
        'XOF',
        'XAF',
        'XCD',
        'XPF',
        'XCG',
      ]),
    );
    for (const code of ['XAU', 'XAG', 'XDR', 'XTS', 'XXX', 'USN', 'CHE', 'BTC', 'FRF']) {
      expect(iso4217FiatCurrencyCodes).not.toContain(code);
    }
  });

  it('the ISO lists are the defaults', () => {
    expect(defaultReferenceLists.countryCodes).toBe(iso3166CountryCodes);
    expect(defaultReferenceLists.fiatCurrencies).toBe(iso4217FiatCurrencyCodes);
  });
});

describe('withReferenceLists', () => {
  it('replaces the lists a host gives, whole, and keeps the other defaults', () => {
    const lists = withReferenceLists({ fiatCurrencies: ['EUR'], blockchainNetworks: ['SOLANA'] });
    expect(lists.fiatCurrencies).toEqual(['EUR']);
    expect(lists.blockchainNetworks).toEqual(['SOLANA']);
    expect(lists.countryCodes).toBe(defaultReferenceLists.countryCodes);
    expect(lists.occupations).toBe(defaultReferenceLists.occupations);
    expect(withReferenceLists()).toEqual(defaultReferenceLists);
  });
});
