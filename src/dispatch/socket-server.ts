import type { AppContext } from '../context/app-context.js';
import type { TemplatedApp } from '../http/uws.js';
import { createRedis, type Redis } from '../redis/connection.js';
import type { DeviceSession, SocketData } from './device-session.js';
import { answerFrame, parseFrame } from './frame-handlers.js';
import { FRAME_BUDGET_DEFAULTS } from './frame-budget.js';
import { limitedRequests } from '../limits/limited-requests.js';
import { StatusReportWriter } from './status-reports.js';
import { Pusher, PUSH_WINDOW, parseMaxJobs } from './pusher.js';
import { errors } from '../errors/errors.js';
import { authenticatedUpgrade, type SocketAdmission } from '../http/socket-upgrade.js';
import { startPresenceLease, type PresenceLease } from '../devices/presence.js';
import type { WakePhones } from '../dispatch-queue/work-signals.js';
import { subscribeDeviceSignals } from '../redis/device-signals.js';
import type { DeviceSignal } from '../redis/device-signal.js';
import { revocationChecks } from './revocation-checks.js';
import { TickBatcher } from '../batching/tick-batcher.js';
import { selectClaimedJobsOfDevices } from './sql/select-claimed-jobs-of-devices.js';
import { FloodCoolDown } from './flood-cool-down.js';
import { CLOSE_REVOKED, closeSession, frameBudget, frameContext, openSession, type Phones, type SocketServerDeps } from './socket-sessions.js';

export type { SocketServerDeps };

export interface DeviceSockets {
  sessions: Map<string, DeviceSession>;
  reports: StatusReportWriter;
  pusher: Pusher;
  /** This process's presence lease, shared with the mobile API's event streams. */
  lease: PresenceLease;
  close(): Promise<void>;
}

export const SOCKET_PATH = '/device/v1/socket';

/**
 * Phone sockets: authenticated on upgrade, one live session per device on this process, frames
 * answered by frame-handlers, work pushed by the Pusher when Redis pub/sub says a queue has
 * messages (whichever API process took the send).
 */
export function attachDeviceSockets(app: TemplatedApp, ctx: AppContext, deps: SocketServerDeps): DeviceSockets {
  const sessions = new Map<string, DeviceSession>();
  ctx.metrics.sources.phones = () => sessions.size;
  const pusher = new Pusher(ctx, sessions);
  const phones: Phones = {
    ctx,
    deps,
    sessions,
    reports: new StatusReportWriter(ctx),
    pusher,
    // This process's phones stay online only while it renews its lease (a killed process's expire),
    // those of its sockets and those the mobile API's event streams hold.
    lease: startPresenceLease(ctx, () => [...sessions.values(), ...(deps.alsoHeld?.() ?? [])]),
    revoked: revocationChecks(ctx),
    limited: limitedRequests(ctx),
    coolDown: new FloodCoolDown(),
    budgetLimits: { ...FRAME_BUDGET_DEFAULTS, ratePerSecond: ctx.config.phoneFramesPerSecond, burst: ctx.config.phoneFrameBurst },
    // Phones reconnecting together (a restart, a network back) read their held jobs in one statement a turn.
    heldJobs: new TickBatcher((deviceIds: string[]) => selectClaimedJobsOfDevices(ctx.db, deviceIds), 500, 2),
  };
  const wake: WakePhones = (orgId, deviceId, count) => pusher.signal(orgId, deviceId, count);
  const origin = ctx.dispatch.signals.holdPhonesLocally(wake);
  const subscriber: Redis = createRedis(ctx.config.redisUrl, { name: 'hafatra-signals', subscriber: true });
  // A process closed right after it started may disconnect before the subscription is made.
  subscribeDeviceSignals(subscriber, ctx.keys, ctx.log, (signal) => onSignal(phones, origin, signal)).catch((err: unknown) => ctx.log.warn({ err }, 'device signal subscription failed'));
  // A reconnecting subscriber may have missed signals: a pump of every session catches up.
  subscriber.on('ready', () => pusher.pumpAll());

  app.ws<SocketData>(SOCKET_PATH, {
    maxPayloadLength: 256 * 1024,
    idleTimeout: 120,
    maxBackpressure: 4 * 1024 * 1024,
    closeOnBackpressureLimit: true as unknown as number, // typed as number in this build, a boolean natively
    sendPingsAutomatically: true,
    upgrade: authenticatedUpgrade(ctx.log, SOCKET_PATH, phoneAdmission(phones)),
    open: (ws) => openSession(phones, ws),
    message: (ws, message) => {
      const session = ws.getUserData().session!;
      const parsed = parseFrame(Buffer.from(message).toString('utf8'));
      const fc = frameContext(phones, session);
      frameBudget(phones, session).submit({
        ref: 'ref' in parsed ? parsed.ref : null,
        heartbeat: 'frame' in parsed && parsed.frame.type === 'heartbeat',
        bytes: message.byteLength,
        run: () => answerFrame(fc, parsed),
      });
    },
    close: (ws) => closeSession(phones, ws),
  });

  return {
    sessions,
    reports: phones.reports,
    pusher,
    lease: phones.lease,
    async close() {
      ctx.dispatch.signals.releasePhonesLocally(wake);
      pusher.stop();
      for (const s of sessions.values()) s.end(1001, 'server shutting down');
      await phones.reports.flush();
      await phones.lease.stop();
      await phones.limited.stop();
      subscriber.disconnect();
    },
  };
}

/** What another API process (or this one) says about the phones this process holds. */
function onSignal({ sessions, pusher }: Phones, origin: string, signal: DeviceSignal): void {
  if (signal.type === 'work' && signal.origin !== origin) pusher.signal(signal.orgId, signal.deviceId, signal.count);
  if (signal.type === 'withdrawn') {
    // The phone drops jobs it has not started; its room for new ones (not these) comes back.
    const s = sessions.get(signal.deviceId);
    const ids = signal.messageIds;
    if (s && ids.length > 0 && s.send({ type: 'withdrawn', messageIds: ids })) pusher.settled(s, ids.length);
  }
  if (signal.type === 'revoked') {
    const s = sessions.get(signal.deviceId);
    if (s) {
      s.send({ type: 'revoked', reason: 'device revoked' });
      s.end(CLOSE_REVOKED, 'revoked');
    }
  }
}

/** Who may open a phone socket: a valid device token, a `?maxJobs=` in range, a phone not cooling down after a flood. */
function phoneAdmission({ ctx, deps, coolDown }: Phones): SocketAdmission<{ authorization: string | undefined; maxJobs: string | undefined }, SocketData> {
  return {
    read: (req) => ({ authorization: req.getHeader('authorization') || undefined, maxJobs: req.getQuery('maxJobs') }),
    admit: async (asked) => {
      const maxJobs = parseMaxJobs(asked.maxJobs);
      if (maxJobs === null) throw errors.invalid(`maxJobs: must be an integer from 1 to ${PUSH_WINDOW}`);
      const principal = await deps.authenticate(asked.authorization);
      coolDown.refuseIfCooling(principal.deviceId);
      return { principal, maxJobs };
    },
    // Only a refused token answers 401: the phone takes a 401 as revoked and stops for good, so a
    // failing database (or a failed upgrade) must answer 500, which the phone retries.
    onUnexpected: (err, requestId) => ctx.log.error({ err, requestId }, 'device socket authentication failed'),
  };
}
