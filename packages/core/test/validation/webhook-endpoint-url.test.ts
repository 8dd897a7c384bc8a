import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allowsPrivateNetwork, checkWebhookEndpointUrl } from '../../src/validation/webhook-endpoint-url.js';

const judged = (url: string) => checkWebhookEndpointUrl(url, { allowPrivateNetworks: false });

/** Spellings a WHATWG parser reads as the same host: any case, full-width letters, one trailing dot. */
const respelled = (host: string) =>
  fc
    .record({
      upper: fc.array(fc.boolean(), { minLength: host.length, maxLength: host.length }),
      fullWidth: fc.array(fc.boolean(), { minLength: host.length, maxLength: host.length }),
      trailingDot: fc.boolean(),
    })
    .map(({ upper, fullWidth, trailingDot }) => {
      const letters = [...host].map((char, i) => {
        const cased = upper[i] ? char.toUpperCase() : char;
        // U+FF01..FF5E are the full-width forms of U+0021..007E; IDNA maps them back.
        return fullWidth[i] && /[a-zA-Z0-9]/.test(cased)
          ? String.fromCodePoint((cased.codePointAt(0) ?? 0) + 0xfee0)
          : cased;
      });
      return `${letters.join('')}${trailingDot ? '.' : ''}`;
    });

const NON_PUBLIC_NAMES = [
  'localhost',
  'foo.localhost',
  'a.b.localhost',
  'vm',
  'intranet',
  'localhost.localdomain',
  'printer.local',
  'db.internal',
  'router.home.arpa',
  'anything.invalid',
];

describe('checkWebhookEndpointUrl: host names', () => {
  it.each([
    'https://localhost./',
    'https://foo.localhost./',
    'https://vm./',
    'https://localhost.localdomain/',
    'https://LOCALHOST./',
    'https://ｌｏｃａｌｈｏｓｔ/',
    'https://localhost../',
    'https://a..b/',
    'https://127.0.0.1./',
    'https://0x7f.1/',
    'https://169.254.169.254./latest/meta-data',
  ])('refuses %s', (url) => {
    expect(judged(url).isErr()).toBe(true);
  });

  it('refuses every spelling of a loopback, local-network or single-label name (any case, full width, trailing dot)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...NON_PUBLIC_NAMES).chain(respelled),
        fc.constantFrom('', ':8443', ':443'),
        (host, port) => {
          expect(judged(`https://${host}${port}/hooks`).isErr(), host).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('accepts every spelling of a public name, and stores what the parser wrote', () => {
    fc.assert(
      fc.property(fc.constantFrom('hooks.example.com', 'portal.bank.co.uk').chain(respelled), (host) => {
        const checked = judged(`https://${host}/hooks`);
        expect(checked.isOk(), host).toBe(true);
        expect(checked._unsafeUnwrap()).toBe(new URL(`https://${host}/hooks`).href);
      }),
      { numRuns: 200 },
    );
  });

  it('allows private networks for the listed URLs only, compared as parsed', () => {
    const allowance = ['http://localhost:4000/hooks'];
    expect(allowsPrivateNetwork(allowance, 'http://LOCALHOST:4000/hooks')).toBe(true);
    expect(allowsPrivateNetwork(allowance, 'http://localhost:4001/hooks')).toBe(false);
    expect(allowsPrivateNetwork(allowance, 'http://localhost:4000/other')).toBe(false);
    expect(
      checkWebhookEndpointUrl('http://localhost:4000/hooks', { allowPrivateNetworks: allowance }).isOk(),
    ).toBe(true);
    for (const url of [
      'http://127.0.0.1:22/',
      'http://169.254.169.254/latest/meta-data',
      'https://localhost./',
    ]) {
      expect(checkWebhookEndpointUrl(url, { allowPrivateNetworks: allowance }).isErr(), url).toBe(true);
    }
  });
});
