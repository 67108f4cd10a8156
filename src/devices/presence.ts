import type { AppContext } from '../context/app-context.js';
import { inTransaction } from '../db/pool.js';
import { newId } from '../ids/ids.js';
import { markSockets } from './heartbeat.js';
import { deleteLapsedLeases } from './sql/delete-lapsed-leases.js';
import { markOrphanedDevicesOffline } from './sql/mark-orphaned-devices-offline.js';
import { reassertHeldSockets } from './sql/reassert-held-sockets.js';
import { releaseProcessLease } from './sql/release-process-lease.js';
import { renewProcessLease } from './sql/renew-process-lease.js';
import { takeProcessLease } from './sql/take-process-lease.js';

/**
 * Presence that expires by itself. A phone's `socket.connected` is written by the API process
 * holding its socket, on open and on close; a process that dies without closing (kill -9, OOM, a
 * lost host) never writes the close. So each API process holds a lease in `api_processes`,
 * renewed every third of HAFATRA_PRESENCE_LEASE_SECONDS, each connected phone's row names its
 * process, and the worker's sweep (expirePresence) marks offline the phones of any process whose
 * lease lapsed. Postgres alone holds all of it: wiping Redis changes nothing. The cost is one
 * small UPDATE per process per renewal; heartbeats and frames pay nothing more.
 */
export interface PresenceLease {
  readonly processId: string;
  /** Resolves once this process's lease exists: an open is written only after, under this id. */
  readonly ready: Promise<void>;
  /** A close that could not be written (Postgres down): retried at every renewal until it is. */
  closeFailed(deviceId: string, generation: number | undefined): void;
  /** Clean shutdown: this process's phones offline and its lease gone, at once. */
  stop(): Promise<void>;
}

/** A socket this process holds: its device and the generation its open wrote. */
export interface HeldSocket {
  deviceId: string;
  opened: Promise<number | null>;
}

export function startPresenceLease(ctx: AppContext, held: () => Iterable<HeldSocket>): PresenceLease {
  const processId = newId('apiProcess');
  const leaseSeconds = ctx.config.presenceLeaseSeconds;
  const failedCloses = new Map<string, number | undefined>();
  let first = true;
  let readyResolve!: () => void;
  const ready = new Promise<void>((resolve) => {
    readyResolve = resolve;
  });

  const renew = async () => {
    if (!(await renewProcessLease(ctx.db, processId, leaseSeconds))) {
      await takeProcessLease(ctx.db, processId, leaseSeconds);
      // Not the first lease: it had lapsed (Postgres down, or this process stalled) and a sweep
      // may have marked our phones offline while their sockets are open here.
      if (!first) await reassertHeld(ctx, processId, await openedSockets(held()));
    }
    first = false;
    readyResolve();
    if (failedCloses.size > 0) await retryCloses();
  };

  const retryCloses = async () => {
    const marks = [...failedCloses].map(([deviceId, generation]) => ({ deviceId, connected: false, generation }));
    await markSockets(ctx, marks);
    for (const m of marks) if (failedCloses.get(m.deviceId) === m.generation) failedCloses.delete(m.deviceId);
  };

  let running: Promise<void> | null = null;
  const tick = () => {
    running ??= renew()
      .catch((err: unknown) => ctx.log.warn({ err }, 'presence lease not renewed'))
      .finally(() => {
        running = null;
      });
    return running;
  };
  void tick();
  const timer = setInterval(() => void tick(), (leaseSeconds * 1000) / 3);
  timer.unref();

  return {
    processId,
    ready,
    closeFailed(deviceId, generation) {
      failedCloses.set(deviceId, generation);
    },
    async stop() {
      clearInterval(timer);
      await running;
      await releaseProcessLease(ctx.db, processId).catch((err: unknown) => ctx.log.warn({ err }, 'presence lease not released; the sweep will expire it'));
    },
  };
}

async function openedSockets(sockets: Iterable<HeldSocket>): Promise<{ deviceId: string; generation: number }[]> {
  const list = [...sockets];
  const generations = await Promise.all(list.map((s) => s.opened.catch(() => null)));
  return list.flatMap((s, i) => (generations[i] == null ? [] : [{ deviceId: s.deviceId, generation: generations[i]! }]));
}

async function reassertHeld(ctx: AppContext, processId: string, sockets: { deviceId: string; generation: number }[]): Promise<void> {
  if (sockets.length === 0) return;
  await reassertHeldSockets(ctx.db, processId, sockets);
}

/**
 * The worker's sweep: deletes the lapsed leases and, in the same transaction, marks offline every
 * connected phone whose process has no lease left. A process renewing meanwhile waits for the
 * delete, finds its lease gone and marks its phones connected again (reassertHeld). Rows locked
 * in id order, as claims lock them. Returns how many phones went offline.
 */
export async function expirePresence(ctx: AppContext): Promise<number> {
  return inTransaction(ctx.db, async (tx) => {
    await deleteLapsedLeases(tx);
    return markOrphanedDevicesOffline(tx);
  });
}
