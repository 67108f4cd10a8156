// A short-lived cache of DNS answers for the delivery-time URL check. dns.lookup runs on libuv's
// small thread pool; a burst of deliveries to one host would queue thousands of identical
// lookups there. Each delivery still classifies the (cached) addresses and connects to the one
// it checked; a DNS change is seen within ttlMs.
import { defaultLookup, type ResolveHost, type ResolvedAddress } from './safe-url.js';

export const DEFAULT_DNS_CACHE_MS = 2000;
/** Hosts remembered at most; the oldest answers go first. */
const MAX_HOSTS = 10_000;

export function cachedLookup(ttlMs = DEFAULT_DNS_CACHE_MS, lookup: ResolveHost = defaultLookup, now = () => Date.now()): ResolveHost {
  // The promise itself is cached: lookups of a host already being resolved wait for that one.
  const answers = new Map<string, { at: number; addresses: Promise<ResolvedAddress[]> }>();
  return (hostname) => {
    const hit = answers.get(hostname);
    if (hit && now() - hit.at < ttlMs) return hit.addresses;
    answers.delete(hostname);
    const addresses = lookup(hostname);
    // A failed lookup is not remembered: the next delivery asks again.
    addresses.catch(() => answers.get(hostname)?.addresses === addresses && answers.delete(hostname));
    answers.set(hostname, { at: now(), addresses });
    if (answers.size > MAX_HOSTS) answers.delete(answers.keys().next().value!);
    return addresses;
  };
}
