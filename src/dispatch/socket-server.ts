import type { AppContext } from '../context/app-context.js';
import type { TemplatedApp, HttpResponse, HttpRequest } from '../http/uws.js';
import type { us_socket_context_t } from 'uWebSockets.js';
import type { DevicePrincipal } from '../auth/principal.js';
import { createRedis, type Redis } from '../redis/connection.js';
import { DeviceSession, type SocketData } from './device-session.js';
import { answerFrame, parseFrame, type DeviceOperations, type FrameContext } from './frame-handlers.js';
import { FRAME_BUDGET_DEFAULTS, FrameBudget } from './frame-budget.js';
import { limitedRequests } from '../limits/limited-requests.js';
import { StatusReportWriter } from './status-reports.js';
import { TickBatcher } from '../batching/tick-batcher.js';
import { Pusher, PUSH_WINDOW, parseMaxJobs } from './pusher.js';
import { errors } from '../errors/errors.js';
import { selectClaimedJobs } from './pending-jobs.js';
import { errorReply, toHafatraError } from '../http/reply.js';
import { guarded, replySafely } from '../http/guard.js';
import { startPresenceLease, type HeldSocket, type PresenceLease } from '../devices/presence.js';
import type { WakePhones } from '../dispatch-queue/work-signals.js';
import { pipelineByNode } from '../redis/pipeline-by-node.js';
import { subscribeDeviceSignals } from '../redis/device-signals.js';

export interface SocketServerDeps {
  authenticate(authorization: string | undefined): Promise<DevicePrincipal>;
  ops: DeviceOperations;
  /**
   * Socket state on the device record. Open returns a generation; the close passes it back, so a
   * late close of an old socket cannot mark a phone offline that reconnected elsewhere.
   */
  markSocket?(deviceId: string, connected: boolean, generation?: number, processId?: string): Promise<number | null>;
  /** Other phones this process holds open (the mobile API's event streams), kept online by the same lease. */
  alsoHeld?: () => Iterable<HeldSocket>;
}

export interface DeviceSockets {
  sessions: Map<string, DeviceSession>;
  reports: StatusReportWriter;
  pusher: Pusher;
  /** This process's presence lease, shared with the mobile API's event streams. */
  lease: PresenceLease;
  close(): Promise<void>;
}

export const SOCKET_PATH = '/device/v1/socket';
const CLOSE_REVOKED = 4001;
const CLOSE_REPLACED = 4000;
/** The phone kept sending frames past its budget after being answered rate_limited. */
export const CLOSE_FLOODING = 4029;
const FLOOD_COOL_DOWN_MS = 10_000;

/**
 * Phone sockets: authenticated on upgrade, one live session per device on this process, frames
 * answered by frame-handlers, work pushed by the Pusher when Redis pub/sub says a queue has
 * messages (whichever API process took the send).
 */
export function attachDeviceSockets(app: TemplatedApp, ctx: AppContext, deps: SocketServerDeps): DeviceSockets {
  const sessions = new Map<string, DeviceSession>();
  ctx.metrics.sources.phones = () => sessions.size;
  const reports = new StatusReportWriter(ctx);
  const pusher = new Pusher(ctx, sessions);
  const subscriber: Redis = createRedis(ctx.config.redisUrl, { name: 'hafatra-signals', subscriber: true });
  const wake: WakePhones = (orgId, deviceId, count) => pusher.signal(orgId, deviceId, count);
  const origin = ctx.dispatch.signals.holdPhonesLocally(wake);
  // This process's phones stay online only while it renews its lease (a killed process's expire),
  // those of its sockets and those the mobile API's event streams hold.
  const lease = startPresenceLease(ctx, () => [...sessions.values(), ...(deps.alsoHeld?.() ?? [])]);

  // A process closed right after it started may disconnect before the subscription is made.
  subscribeDeviceSignals(subscriber, ctx.keys, ctx.log, (signal) => {
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
  }).catch((err: unknown) => ctx.log.warn({ err }, 'device signal subscription failed'));
  // A reconnecting subscriber may have missed signals: a pump of every session catches up.
  subscriber.on('ready', () => pusher.pumpAll());

  // Every frame is checked against a revocation first: the frames of one event-loop turn (a fleet
  // reporting at once) share one pipelined round trip instead of a Redis call each.
  const revokedChecks = new TickBatcher<DevicePrincipal, boolean>(async (principals) => {
    const replies = await pipelineByNode(
      ctx.redis,
      principals,
      (p) => ctx.keys.org(p.orgId).deviceState(p.deviceId),
      (reads, p) => reads.hget(ctx.keys.org(p.orgId).deviceState(p.deviceId), 'revoked'),
    );
    return replies.map(([err, revoked]) => {
      if (err) throw err;
      return revoked === '1';
    });
  }, 512);
  const isRevoked = (p: DevicePrincipal) => revokedChecks.load(p);
  // Empty claims of a fleet woken at once would each read their device row: one statement a turn.
  const revokedRows = new TickBatcher<string, boolean>(async (deviceIds) => {
    const { rows } = await ctx.db.query('SELECT id FROM devices WHERE id = ANY($1::text[]) AND revoked_at IS NOT NULL', [deviceIds]);
    const revoked = new Set(rows.map((r) => r.id as string));
    return deviceIds.map((id) => revoked.has(id));
  }, 512);

  const frameContext = (session: DeviceSession): FrameContext => ({
    ctx,
    principal: session.principal,
    reports,
    ops: deps.ops,
    onJobs: (n) => {
      session.outstanding += n;
    },
    onSettled: (n) => pusher.settled(session, n),
    isRevoked: () => isRevoked(session.principal),
    isRevokedInPostgres: () => revokedRows.load(session.principal.deviceId),
    answers: session.answers,
  });
  const limited = limitedRequests(ctx);
  /** Phones closed for flooding, until when their new sockets are refused (a reconnect costs Postgres writes). */
  const cooling = new Map<string, number>();
  const budgetLimits = { ...FRAME_BUDGET_DEFAULTS, ratePerSecond: ctx.config.phoneFramesPerSecond, burst: ctx.config.phoneFrameBurst };

  app.ws<SocketData>(SOCKET_PATH, {
    maxPayloadLength: 256 * 1024,
    idleTimeout: 120,
    maxBackpressure: 4 * 1024 * 1024,
    closeOnBackpressureLimit: true as unknown as number, // typed as number in this build, a boolean natively
    sendPingsAutomatically: true,
    upgrade: guarded(ctx.log, `upgrade ${SOCKET_PATH}`, (res: HttpResponse, req: HttpRequest, { state, requestId }, context: us_socket_context_t) => {
      const key = req.getHeader('sec-websocket-key');
      const protocol = req.getHeader('sec-websocket-protocol');
      const extensions = req.getHeader('sec-websocket-extensions');
      const authorization = req.getHeader('authorization') || undefined;
      const maxJobs = parseMaxJobs(req.getQuery('maxJobs'));
      if (maxJobs === null) {
        replySafely(res, state, requestId, errorReply(errors.invalid(`maxJobs: must be an integer from 1 to ${PUSH_WINDOW}`), requestId), ctx.log);
        return;
      }
      deps
        .authenticate(authorization)
        .then((principal) => {
          if (state.aborted || state.done) return;
          const waitMs = (cooling.get(principal.deviceId) ?? 0) - Date.now();
          if (waitMs > 0) throw errors.rateLimited('this phone was disconnected for flooding frames; reconnect later', waitMs / 1000);
          cooling.delete(principal.deviceId);
          res.cork(() => res.upgrade<SocketData>({ principal, maxJobs }, key, protocol, extensions, context));
          state.done = true;
        })
        .catch((err: unknown) => {
          // Only a refused token answers 401: the phone takes a 401 as revoked and stops for good,
          // so a failing database (or a failed upgrade) must answer 500, which the phone retries.
          const { error, unexpected } = toHafatraError(err);
          if (unexpected) ctx.log.error({ err, requestId }, 'device socket authentication failed');
          replySafely(res, state, requestId, errorReply(error, requestId), ctx.log);
        });
    }),
    open: (ws) => {
      const data = ws.getUserData();
      const session = new DeviceSession(ws, data.principal, data.maxJobs);
      session.budget = new FrameBudget(budgetLimits, {
        answer: (reply) => {
          if (reply.type === 'error' && reply.code === 'rate_limited') limited('phone_frames', session.principal);
          session.send(reply);
          if (reply.type === 'error' && reply.code === 'no_session') session.end(CLOSE_REVOKED, 'revoked');
        },
        flooded: () => {
          ctx.log.warn({ deviceId: session.deviceId, orgId: session.principal.orgId }, 'phone socket closed: frames past its budget');
          if (cooling.size > 10_000) for (const [id, until] of cooling) if (until < Date.now()) cooling.delete(id);
          cooling.set(session.deviceId, Date.now() + FLOOD_COOL_DOWN_MS);
          session.end(CLOSE_FLOODING, 'too many frames past the budget');
        },
      });
      data.session = session;
      sessions.get(session.deviceId)?.end(CLOSE_REPLACED, 'replaced by a newer socket');
      sessions.set(session.deviceId, session);
      pusher.track(session);
      session.opened = onOpen(ctx, deps, session, pusher, lease);
    },
    message: (ws, message) => {
      const session = ws.getUserData().session!;
      const parsed = parseFrame(Buffer.from(message).toString('utf8'));
      session.budget.submit({
        ref: 'ref' in parsed ? parsed.ref : null,
        heartbeat: 'frame' in parsed && parsed.frame.type === 'heartbeat',
        bytes: message.byteLength,
        run: () => answerFrame(frameContext(session), parsed),
      });
    },
    close: (ws) => {
      const session = ws.getUserData().session;
      if (!session) return;
      session.markClosed();
      session.budget.stop();
      pusher.untrack(session);
      if (sessions.get(session.deviceId) === session) {
        sessions.delete(session.deviceId);
        void session.opened.then((generation) =>
          deps.markSocket?.(session.deviceId, false, generation ?? undefined).catch((err: unknown) => {
            ctx.log.warn({ err }, 'socket close not saved; retried with the presence lease');
            lease.closeFailed(session.deviceId, generation ?? undefined);
          }),
        );
      }
    },
  });

  return {
    sessions,
    reports,
    pusher,
    lease,
    async close() {
      ctx.dispatch.signals.releasePhonesLocally(wake);
      pusher.stop();
      for (const s of sessions.values()) s.end(1001, 'server shutting down');
      await reports.flush();
      await lease.stop();
      await limited.stop();
      subscriber.disconnect();
    },
  };
}

async function onOpen(ctx: AppContext, deps: SocketServerDeps, session: DeviceSession, pusher: Pusher, lease: PresenceLease): Promise<number | null> {
  let generation: number | null = null;
  try {
    await lease.ready;
    generation = (await deps.markSocket?.(session.deviceId, true, undefined, lease.processId)) ?? null;
    const held = await selectClaimedJobs(ctx.db, session.deviceId);
    if (held.length > 0 && session.send({ type: 'jobs', jobs: held })) session.outstanding += held.length;
    await pusher.push(session);
  } catch (err) {
    ctx.log.warn({ err, deviceId: session.deviceId }, 'socket open handling failed');
  }
  return generation;
}
