import { iso3166CountryCodes } from './iso-3166-country-codes.js';
import { iso4217FiatCurrencyCodes } from './iso-4217-currency-codes.js';

/**
 * The supported-value lists the spec leaves "not shown" (decisions §7). A host may replace any of
 * them; these are the defaults. `OTHER` in a list means "described in the matching *Description field".
 */
export type ReferenceLists = {
  readonly occupations: readonly string[];
  readonly businessSectors: readonly string[];
  readonly purposesOfOnboarding: readonly string[];
  readonly sourcesOfFunds: readonly string[];
  readonly annualRevenueRanges: readonly string[];
  readonly globalWealthRanges: readonly string[];
  readonly blockchainNetworks: readonly string[];
  readonly countryCodes: readonly string[];
  readonly fiatCurrencies: readonly string[];
};

const wealthRanges = [
  'LESS_THAN_50K',
  'FROM_50K_TO_250K',
  'FROM_250K_TO_1M',
  'FROM_1M_TO_5M',
  'MORE_THAN_5M',
];

export const defaultReferenceLists: ReferenceLists = {
  occupations: ['EMPLOYEE', 'SELF_EMPLOYED', 'BUSINESS_OWNER', 'RETIRED', 'STUDENT', 'UNEMPLOYED', 'OTHER'],
  businessSectors: [
    'AGRICULTURE',
    'CONSTRUCTION',
    'CONSULTING',
    'CRYPTO',
    'EDUCATION',
    'FINANCE',
    'HEALTHCARE',
    'HOSPITALITY',
    'MANUFACTURING',
    'REAL_ESTATE',
    'RETAIL',
    'TECHNOLOGY',
    'TRANSPORT',
    'OTHER',
  ],
  purposesOfOnboarding: ['INVESTMENT', 'PAYMENTS', 'TREASURY_MANAGEMENT', 'TRADING', 'SAVINGS', 'OTHER'],
  sourcesOfFunds: [
    'SALARY',
    'BUSINESS_INCOME',
    'INVESTMENTS',
    'SAVINGS',
    'INHERITANCE',
    'SALE_OF_PROPERTY',
    'CRYPTO_ASSETS',
    'OTHER',
  ],
  annualRevenueRanges: wealthRanges,
  globalWealthRanges: wealthRanges,
  blockchainNetworks: ['ETHEREUM', 'POLYGON', 'ARBITRUM', 'BASE', 'SOLANA', 'TRON'],
  countryCodes: iso3166CountryCodes,
  fiatCurrencies: iso4217FiatCurrencyCodes,
};

/** A host's lists over the defaults: each list given replaces the default one whole. */
export const withReferenceLists = (overrides: Partial<ReferenceLists> = {}): ReferenceLists => ({
  ...defaultReferenceLists,
  ...overrides,
});
