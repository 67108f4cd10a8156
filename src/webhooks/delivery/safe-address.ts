// Is an IP address a public unicast destination? Webhooks must only reach the
// public internet, never the host itself, the private network or a cloud
// metadata service (SSRF). IPv6 uses an allow-list (2000::/3, global unicast)
// minus special blocks; IPv6 forms that embed an IPv4 address are judged by
// that IPv4 address.
import { isIPv4, isIPv6 } from 'node:net';
import { ipv4ToBigInt, ipv6ToBigInt } from '../../net/ip-text.js';

export type AddressClassification = { public: true; family: 4 | 6 } | { public: false; family: 4 | 6 | null; kind: string };

interface Range {
  base: bigint;
  prefix: number;
  kind: string;
}

function range(kind: string, cidr: string): Range {
  const [base = '', prefix = ''] = cidr.split('/');
  return { kind, base: isIPv4(base) ? ipv4ToBigInt(base) : ipv6ToBigInt(base), prefix: Number(prefix) };
}

function findRange(value: bigint, bits: number, ranges: Range[]): Range | undefined {
  return ranges.find((r) => value >> BigInt(bits - r.prefix) === r.base >> BigInt(bits - r.prefix));
}

// Most specific first: the first match names the refusal.
const IPV4_REFUSED: Range[] = [
  range('cloud metadata', '169.254.169.254/32'),
  range('broadcast', '255.255.255.255/32'),
  range('"this network"', '0.0.0.0/8'),
  range('private', '10.0.0.0/8'),
  range('shared (CGNAT)', '100.64.0.0/10'),
  range('loopback', '127.0.0.0/8'),
  range('link-local', '169.254.0.0/16'),
  range('private', '172.16.0.0/12'),
  range('IETF protocol assignment', '192.0.0.0/24'),
  range('documentation', '192.0.2.0/24'),
  range('6to4 relay anycast', '192.88.99.0/24'),
  range('private', '192.168.0.0/16'),
  range('benchmarking', '198.18.0.0/15'),
  range('documentation', '198.51.100.0/24'),
  range('documentation', '203.0.113.0/24'),
  range('multicast', '224.0.0.0/4'),
  range('reserved', '240.0.0.0/4'),
];

// IPv6 forms whose low 32 bits are an IPv4 address. Mapped and NAT64 forms
// reach that IPv4 address, so it decides; the IPv4-compatible form is
// deprecated (RFC 4291) and never routed as IPv4, so it is always refused.
const IPV6_EMBEDDING_IPV4: (Range & { usable: boolean })[] = [
  { ...range('IPv4-mapped', '::ffff:0:0/96'), usable: true },
  { ...range('NAT64', '64:ff9b::/96'), usable: true },
  { ...range('IPv4-compatible', '::/96'), usable: false },
];

const IPV6_REFUSED: Range[] = [
  range('cloud metadata', 'fd00:ec2::254/128'),
  range('unspecified', '::/128'),
  range('loopback', '::1/128'),
  range('IETF protocol assignment (Teredo, benchmarking, ORCHID)', '2001::/23'),
  range('documentation', '2001:db8::/32'),
  range('6to4', '2002::/16'),
  range('documentation', '3fff::/20'),
  range('unique local', 'fc00::/7'),
  range('link-local', 'fe80::/10'),
  range('site-local', 'fec0::/10'),
  range('multicast', 'ff00::/8'),
  range('local-use NAT64', '64:ff9b:1::/48'),
  range('discard-only', '100::/64'),
];

const IPV6_GLOBAL_UNICAST = range('global unicast', '2000::/3');

function classifyIPv4(address: string): AddressClassification {
  const refused = findRange(ipv4ToBigInt(address), 32, IPV4_REFUSED);
  return refused ? { public: false, family: 4, kind: refused.kind } : { public: true, family: 4 };
}

function classifyIPv6(address: string): AddressClassification {
  const value = ipv6ToBigInt(address);
  // ::/128 and ::1 sit inside ::/96 but are not IPv4 addresses.
  const refused = findRange(value, 128, IPV6_REFUSED);
  if (refused && refused.prefix === 128) return { public: false, family: 6, kind: refused.kind };
  const embedding = IPV6_EMBEDDING_IPV4.find((r) => findRange(value, 128, [r]));
  if (embedding) {
    const v4 = classifyIPv4(bigIntToIPv4(value & 0xffffffffn));
    if (!v4.public) return { public: false, family: 6, kind: `${embedding.kind} ${v4.kind}` };
    return embedding.usable ? { public: true, family: 6 } : { public: false, family: 6, kind: `${embedding.kind} (deprecated)` };
  }
  if (refused) return { public: false, family: 6, kind: refused.kind };
  if (!findRange(value, 128, [IPV6_GLOBAL_UNICAST])) return { public: false, family: 6, kind: 'reserved' };
  return { public: true, family: 6 };
}

function bigIntToIPv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

/**
 * Classify an IP address (IPv4, or IPv6 with or without brackets and zone id).
 * Anything that is not an IP address is reported as not public.
 */
export function classifyAddress(address: string): AddressClassification {
  const bracketed = /^\[(.*)\]$/.exec(address);
  const bare = (bracketed ? bracketed[1]! : address).replace(/%.*$/, '');
  if (isIPv4(bare) && !bracketed) return classifyIPv4(bare);
  if (isIPv6(bare)) return classifyIPv6(bare);
  return { public: false, family: null, kind: 'not an IP address' };
}

export function isPublicAddress(address: string): boolean {
  return classifyAddress(address).public;
}
