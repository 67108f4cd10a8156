import type { FrameReply } from './frame-reply.js';

export interface FrameBudgetLimits {
  /** Token bucket: frames per second, and how many at once. */
  ratePerSecond: number;
  burst: number;
  /** Frames of one socket being answered at once (claims, reports, received SMS); others wait. */
  inFlight: number;
  /** Frames waiting, by count and by bytes: memory stays bounded whatever the phone sends. */
  queuedFrames: number;
  queuedBytes: number;
  /** Refusals in a 10-second window after which the phone is flooding, not unlucky. */
  floodRefusals: number;
}

export const FRAME_BUDGET_DEFAULTS = { inFlight: 64, queuedFrames: 256, queuedBytes: 1024 * 1024, floodRefusals: 1000 };
const FLOOD_WINDOW_MS = 10_000;

/** One frame as the socket server hands it: a heartbeat or not, with its ref for the answer. */
export interface BudgetedFrame {
  ref: string | null;
  heartbeat: boolean;
  bytes: number;
  run(): Promise<FrameReply>;
}

/** Where budgets answer, one per process: each call names the budget's owner (its socket's session). */
export interface FrameBudgetSink<O> {
  answer(owner: O, reply: FrameReply): void;
  /** The phone kept sending past its refusals: the socket is to be closed. */
  flooded(owner: O): void;
}

/** Whole milliseconds: a fraction would box each socket's refill and window times on the heap. */
const clock = () => Math.floor(performance.now());

/**
 * One phone socket's frame budget (docs/device-protocol.md, "Frame budget"). Every frame takes a
 * token; without one it is answered `rate_limited` at once, and nothing of it reaches Postgres.
 * Admitted frames run a few at a time with a short queue. Heartbeats run one at a time and
 * coalesce: a heartbeat arriving while another waits takes its place (the newest state wins),
 * and every ref it replaced gets the answer it gets. All of it is local to the socket: a device
 * has one socket, on one process. Every socket that speaks holds one, so it holds no closure of
 * its own: the sink is the process's, and the queue is made when a frame first waits.
 */
export class FrameBudget<O> {
  private tokens: number;
  private refilledAt: number;
  private running = 0;
  private queue: BudgetedFrame[] | null = null;
  private queuedBytes = 0;
  private heartbeatRunning = false;
  private waitingHeartbeat: { frame: BudgetedFrame; refs: (string | null)[] } | null = null;
  private refusals = 0;
  private windowStartedAt: number;
  private stopped = false;

  constructor(
    private readonly limits: FrameBudgetLimits,
    private readonly sink: FrameBudgetSink<O>,
    private readonly owner: O,
    private readonly now: () => number = clock,
  ) {
    this.tokens = limits.burst;
    this.refilledAt = this.windowStartedAt = now();
  }

  submit(frame: BudgetedFrame): void {
    if (this.stopped) return;
    if (!this.takeToken()) return this.refuse(frame.ref, this.msUntilToken());
    if (frame.heartbeat) return this.submitHeartbeat(frame);
    if (this.running < this.limits.inFlight) return this.run(frame);
    const queue = (this.queue ??= []);
    if (queue.length >= this.limits.queuedFrames || this.queuedBytes + frame.bytes > this.limits.queuedBytes) return this.refuse(frame.ref, 100);
    queue.push(frame);
    this.queuedBytes += frame.bytes;
  }

  /** The socket closed: nothing more is answered or started. */
  stop(): void {
    this.stopped = true;
    this.queue = null;
    this.waitingHeartbeat = null;
  }

  private takeToken(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.limits.burst, this.tokens + ((now - this.refilledAt) / 1000) * this.limits.ratePerSecond);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  private msUntilToken(): number {
    return Math.max(1, Math.ceil(((1 - this.tokens) / this.limits.ratePerSecond) * 1000));
  }

  private refuse(ref: string | null, retryAfterMs: number): void {
    this.sink.answer(this.owner, { type: 'error', ref, code: 'rate_limited', message: `too many frames on this socket; send this one again in ${retryAfterMs} ms`, retryAfterMs });
    const now = this.now();
    if (now - this.windowStartedAt > FLOOD_WINDOW_MS) {
      this.windowStartedAt = now;
      this.refusals = 0;
    }
    if (++this.refusals > this.limits.floodRefusals) {
      this.stop();
      this.sink.flooded(this.owner);
    }
  }

  private run(frame: BudgetedFrame): void {
    this.running++;
    void frame.run().then((reply) => {
      this.running--;
      if (this.stopped) return;
      this.sink.answer(this.owner, reply);
      const next = this.queue?.shift();
      if (next) {
        this.queuedBytes -= next.bytes;
        this.run(next);
      }
    });
  }

  private submitHeartbeat(frame: BudgetedFrame): void {
    if (!this.heartbeatRunning) return this.runHeartbeat(frame, [frame.ref]);
    const refs = this.waitingHeartbeat?.refs ?? [];
    refs.push(frame.ref);
    this.waitingHeartbeat = { frame, refs };
  }

  private runHeartbeat(frame: BudgetedFrame, refs: (string | null)[]): void {
    this.heartbeatRunning = true;
    void frame.run().then((reply) => {
      this.heartbeatRunning = false;
      if (this.stopped) return;
      for (const ref of refs) this.sink.answer(this.owner, { ...reply, ref } as FrameReply);
      const next = this.waitingHeartbeat;
      this.waitingHeartbeat = null;
      if (next) this.runHeartbeat(next.frame, next.refs);
    });
  }
}
