import type { EndpointSlots } from './endpoint-slots.js';

/** Waits expected to be longer than this go back to BullMQ (delayed) instead of holding a worker slot. */
export const MAX_LOCAL_WAIT_MS = 250;
/** Release interval assumed for an endpoint not seen yet. */
const UNKNOWN_INTERVAL_MS = 0.5;
const MIN_RETRY_MS = 100;
const MAX_RETRY_MS = 5000;

interface EndpointState {
  waiters: Array<() => void>;
  inFlight: number;
  /** Moving average of the time between two releases of this endpoint's slots here. */
  intervalMs: number;
  /** Last release, or the start of a busy period: the wait so far counts from here. */
  lastReleaseAt: number;
}

export type GateEntry = { ok: true } | { ok: false; retryInMs: number };

export interface EndpointGate {
  enter(endpointId: string, deliveryId: string): Promise<GateEntry>;
  leave(endpointId: string, deliveryId: string): Promise<void>;
}

/**
 * In front of the Redis slots (at most N deliveries in flight per endpoint): a delivery that
 * finds its endpoint's slots full waits here when the endpoint frees slots fast enough for the
 * wait to be short (position in line × time between releases), and otherwise goes back to the
 * queue for about that long. A fast endpoint's burst queues here without churn; a slow or
 * hanging endpoint's deliveries leave at once, so they never hold more than N worker slots.
 */
export function endpointGate(slots: EndpointSlots): EndpointGate {
  // One small record per endpoint this process has delivered to (an organization has at most 20).
  const states = new Map<string, EndpointState>();
  const stateOf = (id: string) => {
    let s = states.get(id);
    if (!s) states.set(id, (s = { waiters: [], inFlight: 0, intervalMs: UNKNOWN_INTERVAL_MS, lastReleaseAt: Date.now() }));
    return s;
  };
  const expectedWait = (s: EndpointState, position: number) =>
    position * Math.max(s.intervalMs, (Date.now() - s.lastReleaseAt) / Math.max(1, position));
  const waitTurn = (s: EndpointState, ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        const i = s.waiters.indexOf(wake);
        if (i >= 0) s.waiters.splice(i, 1);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      s.waiters.push(wake);
    });

  return {
    async enter(endpointId, deliveryId) {
      const s = stateOf(endpointId);
      for (;;) {
        if (await slots.acquire(endpointId, deliveryId)) {
          if (s.inFlight++ === 0) s.lastReleaseAt = Date.now();
          return { ok: true };
        }
        const wait = expectedWait(s, s.waiters.length + 1);
        if (wait > MAX_LOCAL_WAIT_MS) {
          const retryInMs = Math.min(MAX_RETRY_MS, Math.max(MIN_RETRY_MS, wait)) * (0.75 + Math.random() / 2);
          return { ok: false, retryInMs };
        }
        // Releases by other processes wake nobody here: the timeout makes the waiter look again.
        await waitTurn(s, MAX_LOCAL_WAIT_MS);
      }
    },
    async leave(endpointId, deliveryId) {
      await slots.release(endpointId, deliveryId);
      const s = stateOf(endpointId);
      s.inFlight = Math.max(0, s.inFlight - 1);
      const now = Date.now();
      s.intervalMs = 0.8 * s.intervalMs + 0.2 * (now - s.lastReleaseAt);
      s.lastReleaseAt = now;
      s.waiters[0]?.();
    },
  };
}
