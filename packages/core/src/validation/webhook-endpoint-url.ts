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
 * Names that never reach a public receiver (RFC 6761 `localhost` and `invalid`, the common
 * `localhost.localdomain`, mDNS `local`, RFC 8375 `home.arpa`, ICANN's private-use `internal`):
 * the name itself and every name under it.
 */
const NON_PUBLIC_DOMAINS = ['localhost', 'localdomain', 'local', 'internal', 'home.arpa', 'invalid'];

/**
 * A host as DNS treats it: the WHATWG URL parser has already lower-cased it, mapped it through
 * IDNA (full-width and other compatibility forms fold, `Ｌocalhost` is `localhost`) and read IPv4
 * in every spelling (`0x7f.1`, `2130706433`, `127.0.0.1.`); what is left is the root's trailing dot,
 * which names the same host (`localhost.` is `localhost`). One is stripped; an empty label left
 * (`a..b`, `localhost..`) is no host name at all.
 */
export const normalizedWebhookHost = (url: URL): string | null => {
  const host = url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname;
  return host === '' || host.split('.').includes('') ? null : host;
};

/** Why a normalized host is not a public one, or null when it may be. */
const nonPublicHostReason = (host: string): string | null => {
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  if (ipaddr.isValid(literal)) {
    return isPublicUnicastAddress(literal)
      ? null
      : 'Must not point at a loopback, private, link-local or reserved address';
  }
  if (!host.includes('.')) return 'Must name a public host (loopback and single-label hosts are refused)';
  return NON_PUBLIC_DOMAINS.some((domain) => host === domain || host.endsWith(`.${domain}`))
    ? 'Must name a public host (loopback, localhost and local-network names are refused)'
    : null;
};

/**
 * Which endpoints may be on private networks: none (`false`, the default), every one (`true`:
 * development, tests, a receiver inside the host's own network), or only those whose URL is one of
 * a list (the demo's own `WEBHOOK_URL`), compared as the WHATWG parser writes them.
 */
export type PrivateNetworkAllowance = boolean | readonly string[];

const hrefOf = (text: string): string | null => (URL.canParse(text) ? new URL(text).href : null);

/** Whether the endpoint at `url` may be on a private network (at registration and at each delivery). */
export const allowsPrivateNetwork = (allowance: PrivateNetworkAllowance, url: string): boolean => {
  if (typeof allowance === 'boolean') return allowance;
  const href = hrefOf(url);
  return href !== null && allowance.some((allowed) => hrefOf(allowed) === href);
};

/**
 * Checks a webhook endpoint URL before it is stored: `https` with a public host, no credentials.
 * Where private networks are allowed for it, `http` and private, loopback and single-label hosts
 * are accepted too. A host name is checked again, by the transport, on the addresses it resolves
 * to when each delivery connects. This is the one place that judges a host name.
 */
export const checkWebhookEndpointUrl = (
  text: string,
  { allowPrivateNetworks }: { readonly allowPrivateNetworks: PrivateNetworkAllowance },
): Result<string, string> => {
  if (!URL.canParse(text)) return err('Must be an absolute http(s) URL');
  const url = new URL(text);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return err('Must be an http(s) URL');
  if (url.username !== '' || url.password !== '') return err('Must not carry credentials');
  if (url.hash !== '') return err('Must not have a fragment');
  const host = normalizedWebhookHost(url);
  if (host === null) return err('Must name a host (no empty label)');
  if (allowsPrivateNetwork(allowPrivateNetworks, url.href)) return ok(url.href);
  if (url.protocol !== 'https:') return err('Must use https');
  const refused = nonPublicHostReason(host);
  return refused === null ? ok(url.href) : err(refused);
};
