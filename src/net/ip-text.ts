// IP address text to numbers. Callers validate with node:net's isIPv4/isIPv6
// first; these functions assume well-formed input.

export function ipv4ToBigInt(address: string): bigint {
  return address.split('.').reduce((value, octet) => (value << 8n) | BigInt(Number(octet)), 0n);
}

export function ipv6ToBigInt(address: string): bigint {
  let text = address;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    // Trailing dotted quad (::ffff:1.2.3.4): turn it into two hex groups.
    const v4 = ipv4ToBigInt(text.slice(lastColon + 1));
    text = `${text.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', tail = ''] = text.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = text.includes('::') && tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = text.includes('::') ? [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups] : headGroups;
  return groups.reduce((value, group) => (value << 16n) | BigInt(parseInt(group, 16)), 0n);
}

export function ipv6ToBytes(address: string): Buffer {
  const value = ipv6ToBigInt(address);
  const bytes = Buffer.alloc(16);
  bytes.writeBigUInt64BE(value >> 64n, 0);
  bytes.writeBigUInt64BE(value & 0xffffffffffffffffn, 8);
  return bytes;
}

/** URL hostnames keep the brackets of IPv6 literals: `[::1]` → `::1`. */
export function withoutBrackets(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1');
}
