import type { Infrastructure } from '../infrastructure/infrastructure.js';

/** Why a node is not ready: a store that did not answer in time, or a shutdown under way. */
export type NotReadyReason = 'postgres' | 'redis' | 'draining';

export interface Readiness {
  /** Not ready reasons, empty when ready. Probes are shared and cached (see readiness()). */
  check(): Promise<NotReadyReason[]>;
  /** From now on the node answers not ready (SIGTERM): the balancer stops sending it work. */
  startDraining(): void;
}

/** A store that has not answered its probe in this long counts as down: /readyz never hangs. */
export const PROBE_TIMEOUT_MS = 1_000;
/** A probe's result is reused this long: balancers polling every second from several places cost a few queries a second. */
export const PROBE_CACHE_MS = 400;

/** Resolves true when `probe` succeeds within PROBE_TIMEOUT_MS; false on an error or past it. */
function answersInTime(probe: () => Promise<unknown>): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
    // The late answer (or error) of a timed-out probe settles nothing more.
    Promise.resolve()
      .then(probe)
      .then(
        () => resolve(true),
        () => resolve(false),
      )
      .finally(() => clearTimeout(timer));
  });
}

/**
 * Postgres (`SELECT 1`) and Redis (`PING`) probed in parallel, each bounded. One probe runs at a
 * time: callers arriving while it runs, or within PROBE_CACHE_MS after it ended, share its result.
 */
export function readiness(infra: Pick<Infrastructure, 'db' | 'redis'>): Readiness {
  let draining = false;
  let running: Promise<NotReadyReason[]> | null = null;
  let cached: { at: number; reasons: NotReadyReason[] } | null = null;
  const probe = async (): Promise<NotReadyReason[]> => {
    const [pg, redis] = await Promise.all([answersInTime(() => infra.db.query('SELECT 1')), answersInTime(() => infra.redis.ping())]);
    const reasons: NotReadyReason[] = [];
    if (!pg) reasons.push('postgres');
    if (!redis) reasons.push('redis');
    return reasons;
  };
  return {
    async check() {
      if (!(cached && performance.now() - cached.at < PROBE_CACHE_MS)) {
        running ??= probe().then((reasons) => {
          cached = { at: performance.now(), reasons };
          running = null;
          return reasons;
        });
        await running;
      }
      const stores = cached!.reasons;
      return draining ? [...stores, 'draining'] : stores;
    },
    startDraining() {
      draining = true;
    },
  };
}
