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

/** The base names this machine to itself alone: a phone cannot reach it. */
export const isLoopbackBase = (base: string) => LOOPBACK.has(new URL(base).hostname);

/** HOST that listens on every interface, the LAN's included. */
export const listensOnEveryInterface = (host: string) => host === '0.0.0.0' || host === '::' || host === '';

/**
 * The base URL a phone should use when a member reads it off a page opened on the server itself
 * (`http://localhost:3000`): the loopback name becomes the machine's first LAN address, which the
 * phone can reach (and, with HAFATRA_HTTPS, the certificate names), when the server listens
 * there: with HAFATRA_HTTPS, or on every interface (HOST 0.0.0.0, the default). Any other base is kept.
 */
export function phoneReachableBase(base: string, https: boolean, names: string[] = lanNames(), listensOnLan = false): string {
  if (!https && !listensOnLan) return base;
  const url = new URL(base);
  if (!LOOPBACK.has(url.hostname)) return base;
  const lan = names.find((n) => /^\d+\.\d+\.\d+\.\d+$/.test(n) && !n.startsWith('127.'));
  if (!lan) return base;
  url.hostname = lan;
  return url.origin;
}
