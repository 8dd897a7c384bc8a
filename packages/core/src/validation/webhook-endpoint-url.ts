import ipaddr from 'ipaddr.js';
import { err, ok, type Result } from 'neverthrow';

/** The IPv6 global unicast space (RFC 4291): every public IPv6 address is in it. */
const IPV6_GLOBAL_UNICAST: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('2000::'), 3];

/**
 * Whether an address is a public unicast one. Loopback, private (RFC 1918, unique local), link
 * local (cloud metadata lives at 169.254.169.254), carrier-grade NAT, multicast, reserved and the
 * unspecified address are not; an IPv4-mapped IPv6 address is judged as its IPv4 address. An IPv6
 * address must also be in the global unicast space 2000::/3: that leaves out the deprecated
 * IPv4-compatible form (`::127.0.0.1`, which a host with an automatic tunnel sends to that IPv4
 * address) and any space not yet assigned.
 */
export const isPublicUnicastAddress = (address: string): boolean => {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(bare)) return false;
  const parsed = ipaddr.process(bare);
  if (parsed.range() !== 'unicast') return false;
  return parsed.kind() === 'ipv4' || (parsed as ipaddr.IPv6).match(IPV6_GLOBAL_UNICAST);
};

/**
 * Checks a webhook endpoint URL before it is stored: `https` with a public host, no credentials.
 * With `allowPrivateNetworks` (development, tests, a receiver inside the host's own network) `http`
 * and private, loopback and single-label hosts are accepted too. A host name is checked again, by
 * the transport, on the addresses it resolves to when each delivery connects.
 */
export const checkWebhookEndpointUrl = (
  text: string,
  { allowPrivateNetworks }: { readonly allowPrivateNetworks: boolean },
): Result<string, string> => {
  if (!URL.canParse(text)) return err('Must be an absolute http(s) URL');
  const url = new URL(text);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return err('Must be an http(s) URL');
  if (url.username !== '' || url.password !== '') return err('Must not carry credentials');
  if (url.hash !== '') return err('Must not have a fragment');
  if (allowPrivateNetworks) return ok(url.href);
  if (url.protocol !== 'https:') return err('Must use https');
  const host = url.hostname;
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  if (ipaddr.isValid(literal)) {
    return isPublicUnicastAddress(literal)
      ? ok(url.href)
      : err('Must not point at a loopback, private, link-local or reserved address');
  }
  if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) {
    return err('Must name a public host (loopback and single-label hosts are refused)');
  }
  return ok(url.href);
};
