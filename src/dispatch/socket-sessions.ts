import type { AppContext } from '../context/app-context.js';
import type { WebSocket } from '../http/uws.js';
import type { LimitedRequests } from '../limits/limited-requests.js';
import type { HeldSocket, PresenceLease } from '../devices/presence.js';
import { DeviceSession, type SocketData } from './device-session.js';
import type { DeviceOperations, FrameContext } from './frame-handlers.js';
import { FrameBudget, type FrameBudgetLimits, type FrameBudgetSink } from './frame-budget.js';
import type { RecentAnswers } from './recent-answers.js';
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
  /** Where every socket's frame budget answers, made at the first frame of the process. */
  budgetSink?: FrameBudgetSink<DeviceSession>;
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
export function frameBudget(phones: Phones, session: DeviceSession): FrameBudget<DeviceSession> {
  session.budget ??= new FrameBudget(phones.budgetLimits, (phones.budgetSink ??= budgetSink(phones)), session);
  return session.budget;
}

/** Where every socket's budget answers: what it refuses goes to its session, and a flooding phone is cut off. */
function budgetSink({ ctx, limited, coolDown }: Phones): FrameBudgetSink<DeviceSession> {
  return {
    answer: (session, reply) => {
      if (reply.type === 'error' && reply.code === 'rate_limited') limited('phone_frames', session.principal);
      session.send(reply);
      if (reply.type === 'error' && reply.code === 'no_session') session.end(CLOSE_REVOKED, 'revoked');
    },
    flooded: (session) => {
      ctx.log.warn({ deviceId: session.deviceId, orgId: session.principal.orgId }, 'phone socket closed: frames past its budget');
      coolDown.start(session.deviceId);
      session.end(CLOSE_FLOODING, 'too many frames past the budget');
    },
  };
}

/** The open saved on the device record, the jobs it claimed before (a reconnect) sent again, and new work if any waits. */
async function recordOpen({ ctx, deps, pusher, lease, heldJobs }: Phones, session: DeviceSession): Promise<number | null> {
  let generation: number | null = null;
  try {
    await lease.ready;
    generation = (await deps.markSocket?.(session.deviceId, true, undefined, lease.processId)) ?? null;
    const held = await heldJobs.load(session.deviceId);
    if (held.length > 0 && session.send({ type: 'jobs', jobs: held })) session.took(held.length);
    await pusher.pushIfWorkWaits(session);
  } catch (err) {
    ctx.log.warn({ err, deviceId: session.deviceId }, 'socket open handling failed');
  }
  return generation;
}

/** What answering a frame of this session needs, made once per session. */
export function frameContext(phones: Phones, session: DeviceSession): FrameContext {
  session.frameContext ??= new SessionFrames(phones, session);
  return session.frameContext;
}

/**
 * A session's FrameContext: the process's parts and the session, read through the prototype. Every
 * socket that speaks holds one: an object of two fields, where a literal of closures cost each
 * socket four functions and their context.
 */
class SessionFrames implements FrameContext {
  constructor(
    private readonly phones: Phones,
    private readonly session: DeviceSession,
  ) {}

  get ctx(): AppContext {
    return this.phones.ctx;
  }
  get principal(): DevicePrincipal {
    return this.session.principal;
  }
  get reports(): StatusReportWriter {
    return this.phones.reports;
  }
  get ops(): DeviceOperations {
    return this.phones.deps.ops;
  }
  get answers(): RecentAnswers {
    return this.session.answers;
  }
  onJobs(count: number): void {
    this.session.took(count);
  }
  onSettled(count: number): void {
    this.phones.pusher.settled(this.session, count);
  }
  isRevoked(): Promise<boolean> {
    return this.phones.revoked.inRedis(this.session.principal);
  }
  isRevokedInPostgres(): Promise<boolean> {
    return this.phones.revoked.inPostgres(this.session.principal.deviceId);
  }
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
