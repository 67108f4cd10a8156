// Keep-alive connection pools, one per (scheme, host, port, checked address, trusted CAs).
// Reusing connections is what makes thousands of deliveries per second possible; connecting
// to the checked address itself is what keeps a DNS change from redirecting a delivery to an
// address that was never checked.
//
// undici, not node:http: the same signed POST and capped read cost 31 µs of CPU against 47-53
// µs through node:https and its Agent (bench/README.md, "Measurements behind the code").
import { Pool } from 'undici';

/** Parallel connections to one receiver address; excess requests wait in its pool. */
export const MAX_CONNECTIONS_PER_RECEIVER = 256;
/** An idle connection is closed after this long, or sooner when the receiver says so (Keep-Alive: timeout). */
const IDLE_CONNECTION_TIMEOUT_MS = 30_000;
/** Least recently used pools beyond this many are closed. */
const MAX_POOLS = 1_000;

const pools = new Map<string, Pool>();
/** Trusted CA lists by identity: a pool trusts exactly the CAs it was made with. */
const caIds = new Map<string | string[], number>();

export interface PinnedTarget {
  /** The URL's host as the Host header and SNI need it: name, or IP literal, and port when not the default. */
  host: string;
  port: number;
  address: string;
  family: 4 | 6;
  /** Plain http (an organization's private target); https otherwise. */
  plain: boolean;
  /** Extra trusted CA certificates (PEM), for tests. */
  ca?: string | string[];
}

function caId(ca: string | string[] | undefined): number {
  if (ca === undefined) return 0;
  let id = caIds.get(ca);
  if (id === undefined) caIds.set(ca, (id = caIds.size + 1));
  return id;
}

/** The pool whose connections go to the target's checked address. */
export function poolFor(target: PinnedTarget): Pool {
  const key = `${target.plain ? 'http' : 'https'}|${target.host}|${target.address}|${target.port}|${caId(target.ca)}`;
  let pool = pools.get(key);
  if (pool) {
    pools.delete(key); // re-insert: Map order doubles as recency order
  } else {
    const address = target.family === 6 ? `[${target.address}]` : target.address;
    pool = new Pool(`${target.plain ? 'http' : 'https'}://${address}:${target.port}`, {
      connections: MAX_CONNECTIONS_PER_RECEIVER,
      // A POST is never sent on a connection while another request runs on it (undici does not
      // pipeline requests that are not idempotent), so this only lets a connection carry the next
      // delivery as soon as its answer is in. With 1, undici waits a loop turn first and opens
      // other connections meanwhile: 150 to the bench's receiver for 50 deliveries in flight.
      pipelining: 2,
      keepAliveTimeout: IDLE_CONNECTION_TIMEOUT_MS,
      // The deadline of a whole attempt is the caller's; this only bounds a pool nobody aborts.
      connect: { ca: target.ca, timeout: 30_000 },
    });
  }
  pools.set(key, pool);
  evictBeyond(MAX_POOLS);
  return pool;
}

function evictBeyond(limit: number): void {
  for (const [key, pool] of pools) {
    if (pools.size <= limit) return;
    pools.delete(key);
    // Attempts in flight on an evicted pool end normally; a shutdown (limit 0) cuts them.
    const closing = limit === 0 ? pool.destroy() : pool.close();
    closing.catch(() => {});
  }
}

/** Close every pooled connection (on shutdown, and between tests). */
export function closeWebhookConnections(): void {
  evictBeyond(0);
}

export function openWebhookPoolCount(): number {
  return pools.size;
}
