import { hostname, networkInterfaces } from 'node:os';

/**
 * The names a phone on the LAN may use for this machine: its non-internal addresses (IPv6
 * link-local ones need a zone a URL cannot carry), its host name and `<host>.local` (mDNS),
 * and the loopback names for `adb reverse` and the machine itself, plus the operator's extras.
 */
export function lanNames(extra: string[] = [], interfaces = networkInterfaces(), host = hostname()): string[] {
  const addresses = Object.values(interfaces)
    .flat()
    .filter((a) => a && !a.internal && !(a.family === 'IPv6' && a.address.toLowerCase().startsWith('fe80:')))
    .map((a) => a!.address);
  const hostNames = /^[A-Za-z0-9-]+$/.test(host) ? [host, `${host}.local`] : host ? [host] : [];
  return [...new Set([...addresses, ...hostNames, ...extra, 'localhost', '127.0.0.1', '::1'])];
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The base URL a phone should use when a member reads it off a page opened on the server itself
 * (`https://localhost:3000`): with HAFATRA_HTTPS the loopback name becomes the machine's first
 * LAN address, which the certificate names and the phone can reach. Any other base is kept.
 */
export function phoneReachableBase(base: string, https: boolean, names: string[] = lanNames()): string {
  if (!https) return base;
  const url = new URL(base);
  if (!LOOPBACK.has(url.hostname)) return base;
  const lan = names.find((n) => /^\d+\.\d+\.\d+\.\d+$/.test(n) && !n.startsWith('127.'));
  if (!lan) return base;
  url.hostname = lan;
  return url.origin;
}
