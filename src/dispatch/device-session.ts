import type { WebSocket } from '../http/uws.js';
import type { DevicePrincipal } from '../auth/principal.js';
import { RecentAnswers } from './recent-answers.js';
import type { FrameBudget } from './frame-budget.js';
import type { FrameContext } from './frame-handlers.js';

export interface SocketData {
  principal: DevicePrincipal;
  /** The most unreported jobs the phone asked to hold (`?maxJobs=` on the upgrade). */
  maxJobs: number;
  session?: DeviceSession;
}

/** Sessions with frames waiting, written together at the end of the event-loop turn. */
const unflushed = new Set<DeviceSession>();
let flushScheduled = false;

function flushAll(): void {
  flushScheduled = false;
  for (const s of unflushed) s.flush();
  unflushed.clear();
}

/**
 * One phone's live socket on this process. uWS forbids touching a WebSocket after its close
 * event, so every send goes through here and is dropped once `closed` is set.
 *
 * Frames are sent after an await (a batch of status reports resolves the acks of dozens of
 * frames at once), where uWS writes each on its own syscall. They are kept until the end of the
 * turn and written corked: one write per phone per turn.
 */
export class DeviceSession {
  closed = false;
  /** Jobs sent to the phone and not yet reported sent or failed: bounds what one phone holds. */
  private outstanding = 0;
  /** Answers to this socket's recent frames, for resends with the same ref. */
  private recent: RecentAnswers | undefined;
  /** Made at the socket's first frame (src/dispatch/socket-sessions.ts, frameBudget). */
  budget: FrameBudget<DeviceSession> | undefined;
  /** What answering a frame of this socket needs (src/dispatch/frame-handlers.ts), made once. */
  frameContext: FrameContext | undefined;
  private pushing = false;
  private pushAgain = false;
  private retryTimer: NodeJS.Timeout | null = null;
  /** Settles when the open bookkeeping is done, with the socket generation it recorded. */
  opened: Promise<number | null> = Promise.resolve(null);

  /** @param maxJobs pushes stop while the phone holds this many unreported jobs */
  constructor(
    readonly ws: WebSocket<SocketData>,
    readonly principal: DevicePrincipal,
    readonly maxJobs: number,
  ) {}

  get deviceId(): string {
    return this.principal.deviceId;
  }

  /** Answers to this socket's recent frames, for resends with the same ref: made at the first frame that needs them. */
  get answers(): RecentAnswers {
    this.recent ??= new RecentAnswers();
    return this.recent;
  }

  /** Frames waiting for the end of the turn; made when one is sent. */
  private outbox: string[] | null = null;

  /** How many jobs the phone may be sent now: at most `limit`, and none past maxJobs unreported. */
  room(limit: number): number {
    return Math.min(this.maxJobs - this.outstanding, limit);
  }

  /** Whether a claim for the phone could start now: no push of its own running, and room for a job. */
  get ready(): boolean {
    return !this.pushing && !this.closed && this.room(1) > 0;
  }

  /** `count` jobs went out to the phone. */
  took(count: number): void {
    this.outstanding += count;
  }

  /** The phone reported `count` jobs sent or failed, or dropped them. True once it holds half its room or less: worth a refill. */
  settled(count: number): boolean {
    this.outstanding = Math.max(0, this.outstanding - count);
    return this.outstanding <= this.maxJobs / 2;
  }

  /** A push for this phone begins; false when one is running, which is asked to go round once more instead. */
  startPush(): boolean {
    if (this.pushing) {
      this.pushAgain = true;
      return false;
    }
    this.pushing = true;
    this.pushAgain = false;
    return true;
  }

  /** The running push goes round once more (its last claim came back full). */
  askAnotherRound(): void {
    this.pushAgain = true;
  }

  /** Whether the running push goes round again (asked to meanwhile, and the socket still open); clears the request. */
  anotherRound(): boolean {
    const again = this.pushAgain && !this.closed;
    this.pushAgain = false;
    return again;
  }

  endPush(): void {
    this.pushing = false;
  }

  /** Runs `retry` in `ms` unless a retry is already due or the socket closed (markClosed cancels it). */
  retryLater(ms: number, retry: () => void): void {
    if (this.retryTimer || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      retry();
    }, ms);
    this.retryTimer.unref();
  }

  /** False once the socket is closed (the frame is dropped). */
  send(frame: object): boolean {
    if (this.closed) return false;
    const outbox = (this.outbox ??= []);
    outbox.push(JSON.stringify(frame));
    if (outbox.length === 1) {
      unflushed.add(this);
      if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flushAll);
      }
    }
    return true;
  }

  /** Writes the waiting frames in one corked batch. A frame over the backpressure limit closes the socket. */
  flush(): void {
    const frames = this.outbox;
    if (frames === null || this.closed) return;
    this.outbox = null;
    this.ws.cork(() => {
      // Over the limit uWS closes the socket, and its close handler may already have run.
      for (const text of frames) if (this.closed || this.ws.send(text, false) === 2) break;
    });
  }

  end(code: number, reason: string): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.ws.end(code, reason);
  }

  markClosed(): void {
    this.closed = true;
    this.outbox = null;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }
}
