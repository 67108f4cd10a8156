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
