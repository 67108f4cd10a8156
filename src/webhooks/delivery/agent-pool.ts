// Keep-alive HTTPS agents, one per (host, port, checked address), each with a
// lookup pinned to that address. Reusing connections is what makes thousands
// of deliveries per second possible; pinning is what keeps a DNS change from
// redirecting a delivery to an address that was never checked.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

/** Parallel connections to one receiver address; excess requests queue in the agent. */
export const MAX_SOCKETS_PER_RECEIVER = 256;
const MAX_IDLE_SOCKETS_PER_RECEIVER = 64;
const IDLE_SOCKET_TIMEOUT_MS = 30_000;
/** Least recently used agents beyond this many are closed. */
const MAX_AGENTS = 1_000;

const agents = new Map<string, http.Agent>();

export interface PinnedTarget {
  hostname: string;
  port: number;
  address: string;
  family: 4 | 6;
  /** Plain http (an organization's private target); https otherwise. */
  plain?: boolean;
}

function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  // Node 20 asks with all: true when it races address families.
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction;
}

export function agentFor(target: PinnedTarget): http.Agent {
  const key = `${target.plain ? 'http' : 'https'}|${target.hostname}|${target.port}|${target.address}`;
  let agent = agents.get(key);
  if (agent) {
    agents.delete(key); // re-insert: Map order doubles as recency order
  } else {
    agent = new (target.plain ? http.Agent : https.Agent)({
      keepAlive: true,
      maxSockets: MAX_SOCKETS_PER_RECEIVER,
      maxFreeSockets: MAX_IDLE_SOCKETS_PER_RECEIVER,
      timeout: IDLE_SOCKET_TIMEOUT_MS,
      scheduling: 'lifo',
      lookup: pinnedLookup(target.address, target.family),
    });
  }
  agents.set(key, agent);
  evictBeyond(MAX_AGENTS);
  return agent;
}

function evictBeyond(limit: number): void {
  for (const [key, agent] of agents) {
    if (agents.size <= limit) return;
    agent.destroy();
    agents.delete(key);
  }
}

/** Close every pooled connection (on shutdown, and between tests). */
export function closeWebhookAgents(): void {
  evictBeyond(0);
}

export function openWebhookAgentCount(): number {
  return agents.size;
}
