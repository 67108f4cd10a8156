import type { AppContext } from '../context/app-context.js';
import type { WebSocket } from '../http/uws.js';
import type { LimitedRequests } from '../limits/limited-requests.js';
import type { HeldSocket, PresenceLease } from '../devices/presence.js';
import { DeviceSession, type SocketData } from './device-session.js';
import type { DeviceOperations, FrameContext } from './frame-handlers.js';
import { FrameBudget, type FrameBudgetLimits } from './frame-budget.js';
import type { StatusReportWriter } from './status-reports.js';
import type { Pusher } from './pusher.js';
import type { RevocationChecks } from './revocation-checks.js';
import type { FloodCoolDown } from './flood-cool-down.js';
import type { TickBatcher } from '../batching/tick-batcher.js';
import type { Job } from '../dispatch-queue/job.js';
import type { DevicePrincipal } from '../auth/principal.js';

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

export const CLOSE_REVOKED = 4001;
const CLOSE_REPLACED = 4000;
/** The phone kept sending frames past its budget after being answered rate_limited. */
export const CLOSE_FLOODING = 4029;

/** What the parts of the socket server share: one per process. */
export interface Phones {
  ctx: AppContext;
  deps: SocketServerDeps;
  /** The live session of each phone on this process. */
  sessions: Map<string, DeviceSession>;
  reports: StatusReportWriter;
  pusher: Pusher;
  lease: PresenceLease;
  revoked: RevocationChecks;
  limited: LimitedRequests;
  coolDown: FloodCoolDown;
  budgetLimits: FrameBudgetLimits;
  /** Each phone's claimed and unreported jobs (src/dispatch/sql/select-claimed-jobs-of-devices.ts), sent again when its socket opens. */
  heldJobs: TickBatcher<string, Job[]>;
}

/** A phone's socket opened: its session replaces an older one of the same phone, then gets its held jobs and new work. */
export function openSession(phones: Phones, ws: WebSocket<SocketData>): void {
  const { sessions, pusher } = phones;
  const data = ws.getUserData();
  const session = new DeviceSession(ws, data.principal, data.maxJobs);
  data.session = session;
  sessions.get(session.deviceId)?.end(CLOSE_REPLACED, 'replaced by a newer socket');
  sessions.set(session.deviceId, session);
  pusher.track(session);
  session.opened = recordOpen(phones, session);
}

/**
 * A socket's frame budget (src/dispatch/frame-budget.ts), made at its first frame rather than when
 * it opens: phones that hold a socket and say nothing cost no memory for it.
 */
export function frameBudget(phones: Phones, session: DeviceSession): FrameBudget {
  const { ctx, limited, coolDown } = phones;
  session.budget ??= new FrameBudget(phones.budgetLimits, {
    answer: (reply) => {
      if (reply.type === 'error' && reply.code === 'rate_limited') limited('phone_frames', session.principal);
      session.send(reply);
      if (reply.type === 'error' && reply.code === 'no_session') session.end(CLOSE_REVOKED, 'revoked');
    },
    flooded: () => {
      ctx.log.warn({ deviceId: session.deviceId, orgId: session.principal.orgId }, 'phone socket closed: frames past its budget');
      coolDown.start(session.deviceId);
      session.end(CLOSE_FLOODING, 'too many frames past the budget');
    },
  });
  return session.budget;
}

/** The open saved on the device record, and the jobs it claimed before (a reconnect) sent again. */
async function recordOpen({ ctx, deps, pusher, lease, heldJobs }: Phones, session: DeviceSession): Promise<number | null> {
  let generation: number | null = null;
  try {
    await lease.ready;
    generation = (await deps.markSocket?.(session.deviceId, true, undefined, lease.processId)) ?? null;
    const held = await heldJobs.load(session.deviceId);
    if (held.length > 0 && session.send({ type: 'jobs', jobs: held })) session.took(held.length);
    await pusher.push(session);
  } catch (err) {
    ctx.log.warn({ err, deviceId: session.deviceId }, 'socket open handling failed');
  }
  return generation;
}

/** What answering a frame of this session needs, made once per session. */
export function frameContext({ ctx, deps, reports, pusher, revoked }: Phones, session: DeviceSession): FrameContext {
  session.frameContext ??= {
    ctx,
    principal: session.principal,
    reports,
    ops: deps.ops,
    onJobs: (n) => session.took(n),
    onSettled: (n) => pusher.settled(session, n),
    isRevoked: () => revoked.inRedis(session.principal),
    isRevokedInPostgres: () => revoked.inPostgres(session.principal.deviceId),
    answers: session.answers,
  };
  return session.frameContext;
}

/** A socket closed: the phone is marked offline unless a newer socket of it took over meanwhile. */
export function closeSession({ ctx, deps, sessions, pusher, lease }: Phones, ws: WebSocket<SocketData>): void {
  const session = ws.getUserData().session;
  if (!session) return;
  session.markClosed();
  session.budget?.stop();
  pusher.untrack(session);
  if (sessions.get(session.deviceId) !== session) return;
  sessions.delete(session.deviceId);
  void session.opened.then((generation) =>
    deps.markSocket?.(session.deviceId, false, generation ?? undefined).catch((err: unknown) => {
      ctx.log.warn({ err }, 'socket close not saved; retried with the presence lease');
      lease.closeFailed(session.deviceId, generation ?? undefined);
    }),
  );
}
