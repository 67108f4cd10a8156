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
  outstanding = 0;
  /**
   * Made at the socket's first frame, not when it opens: ten thousand phones that hold a socket
   * and say nothing cost no memory for them.
   */
  private recent: RecentAnswers | undefined;
  budget: FrameBudget | undefined;
  /** What answering a frame of this socket needs (src/dispatch/frame-handlers.ts), made once. */
  frameContext: FrameContext | undefined;
  pushing = false;
  pushAgain = false;
  retryTimer: NodeJS.Timeout | null = null;
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

  /** Answers to this socket's recent frames, for resends with the same ref. */
  get answers(): RecentAnswers {
    this.recent ??= new RecentAnswers();
    return this.recent;
  }

  private outbox: string[] = [];

  /** False once the socket is closed (the frame is dropped). */
  send(frame: object): boolean {
    if (this.closed) return false;
    this.outbox.push(JSON.stringify(frame));
    if (this.outbox.length === 1) {
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
    if (frames.length === 0 || this.closed) return;
    this.outbox = [];
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
    this.outbox = [];
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }
}
