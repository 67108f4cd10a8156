// An organization's private webhook targets: the hosts, addresses and ranges on
// its own machine or network (a `hafatra webhook listen` on loopback, a LAN
// service) that its owner allowed webhooks to reach despite the public-address
// rule. Everything not listed stays refused, and a cloud metadata address is
// refused even when listed: no owner needs it, and it holds the host's secrets.
import { isIP, isIPv4 } from 'node:net';
import { ipv4ToBigInt, ipv6ToBigInt, withoutBrackets } from '../../net/ip-text.js';

export const MAX_PRIVATE_TARGETS = 20;

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** Why an entry is not a host name, an IP address or a CIDR range; null when it is one. */
export function privateTargetProblem(entry: string): string | null {
  const text = withoutBrackets(entry.trim().toLowerCase());
  if (text.includes('://')) return `${entry} is not a host name, an IP address or a CIDR range (give the host alone, without scheme or port)`;
  const [address = '', prefix, extra] = text.split('/');
  if (prefix !== undefined) {
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    if (family === 0 || extra !== undefined || !/^\d{1,3}$/.test(prefix) || Number(prefix) > bits) return `${entry} is not a valid CIDR range (e.g. 192.168.1.0/24)`;
    return null;
  }
  if (isIP(address) || HOST_NAME.test(address)) return null;
  return `${entry} is not a host name, an IP address or a CIDR range`;
}

/** The entries normalised (lowercase, no brackets, no duplicates), or the first problem. */
export function normalisePrivateTargets(entries: string[]): { ok: true; targets: string[] } | { ok: false; problem: string } {
  if (entries.length > MAX_PRIVATE_TARGETS) return { ok: false, problem: `at most ${MAX_PRIVATE_TARGETS} entries` };
  for (const entry of entries) {
    const problem = privateTargetProblem(entry);
    if (problem) return { ok: false, problem };
  }
  return { ok: true, targets: [...new Set(entries.map((e) => withoutBrackets(e.trim().toLowerCase())))] };
}

const toBigInt = (address: string): bigint => (isIPv4(address) ? ipv4ToBigInt(address) : ipv6ToBigInt(address));

function rangeContains(cidr: string, address: string): boolean {
  const [base = '', prefixText = ''] = cidr.split('/');
  const family = isIP(base);
  if (family !== isIP(address)) return false;
  const shift = BigInt((family === 4 ? 32 : 128) - Number(prefixText));
  return toBigInt(base) >> shift === toBigInt(address) >> shift;
}

/** Does one of the entries name this host (exactly) or contain this address? */
export function privateTargetAllows(targets: readonly string[], host: string, address: string): boolean {
  const bareAddress = withoutBrackets(address).replace(/%.*$/, '');
  return targets.some((target) => {
    if (target.includes('/')) return rangeContains(target, bareAddress);
    if (isIP(target)) return isIP(bareAddress) === isIP(target) && toBigInt(target) === toBigInt(bareAddress);
    return target === host;
  });
}
