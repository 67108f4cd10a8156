import type { HttpResponse } from '../http/uws.js';
import type { AppDevice } from './authenticate-app.js';
import type { AppEvent } from '../devices/app-events.js';

/** Frames waiting while the phone does not read; past this the stream is closed (it reconnects and pulls). */
const MAX_WAITING = 64;
/**
 * MessageEnqueued makes the phone pull. One is outstanding at a time: the next waits until the
 * phone pulled (any work queued meanwhile is in that pull or in the next), or this long at most,
 * should that pull never come or its news be lost.
 */
export const PULL_WAIT_MS = 1_000;

export const frameOf = (e: AppEvent): string => `event: ${e.event}\ndata: ${JSON.stringify(e.data ?? null)}\n\n`;
export const KEEPALIVE_FRAME = ':keepalive\n\n';

/**
 * One open `GET /events` of a phone. Writes happen on the event loop only, each corked, and never
 * after the client went away (uWS forbids touching a response after onAborted). Backpressure is
 * respected: once uWS reports a write it could not pass on, frames wait here (bounded; repeated
 * wake-ups merge into one) until onWritable says the phone reads again. A keepalive is skipped
 * while the phone is not reading: it would only grow the buffer.
 */
export class AppStream {
  closed = false;
  private blocked = false;
  private waiting: string[] = [];
  private awaitingPull: NodeJS.Timeout | null = null;
  private enqueuedPending = false;
  private delayedTimer: { at: number; timer: NodeJS.Timeout } | null = null;
  /** Settles when the open bookkeeping is done, with the socket generation it recorded. */
  opened: Promise<number | null> = Promise.resolve(null);

  constructor(
    private readonly res: HttpResponse,
    readonly device: AppDevice,
    private readonly onClosed: (s: AppStream) => void,
  ) {
    res.onWritable(() => {
      this.blocked = false;
      // Each frame goes to uWS, which keeps what the kernel did not take; once it reports
      // backpressure again the rest keep waiting for the next call.
      while (this.waiting.length > 0 && !this.blocked && !this.closed) this.write(this.waiting.shift()!);
      return true;
    });
  }

  get deviceId(): string {
    return this.device.deviceId;
  }

  send(event: AppEvent): void {
    if (this.closed) return;
    if (event.event === 'MessageEnqueued') return this.enqueued();
    this.write(frameOf(event));
  }

  keepalive(): void {
    if (!this.closed && !this.blocked) this.write(KEEPALIVE_FRAME);
  }

  /** The event later (a pacing window reopening): one timer per stream, the earliest wins. */
  sendLater(event: AppEvent, delayMs: number): void {
    if (this.closed) return;
    const at = Date.now() + delayMs;
    if (this.delayedTimer && this.delayedTimer.at <= at) return;
    if (this.delayedTimer) clearTimeout(this.delayedTimer.timer);
    const timer = setTimeout(() => {
      this.delayedTimer = null;
      this.send(event);
    }, delayMs);
    timer.unref();
    this.delayedTimer = { at, timer };
  }

  /** A burst of sends wakes the phone once per pull, not once per send, and never later than at once when it is idle. */
  private enqueued(): void {
    if (this.awaitingPull) {
      this.enqueuedPending = true;
      return;
    }
    this.write(frameOf({ event: 'MessageEnqueued' }));
    this.awaitingPull = setTimeout(() => this.pulled(), PULL_WAIT_MS);
    this.awaitingPull.unref();
  }

  /** The phone pulled (GET /message, on any API process): a wake-up held back meanwhile goes now. */
  pulled(): void {
    if (this.awaitingPull) clearTimeout(this.awaitingPull);
    this.awaitingPull = null;
    if (this.enqueuedPending && !this.closed) {
      this.enqueuedPending = false;
      this.enqueued();
    }
  }

  /** False when the frame waits (or the stream closed). */
  private write(frame: string): boolean {
    if (this.closed) return false;
    if (this.blocked) {
      if (this.waiting.includes(frame)) return false;
      if (this.waiting.length >= MAX_WAITING) {
        this.drop();
        return false;
      }
      this.waiting.push(frame);
      return false;
    }
    let ok = true;
    this.res.cork(() => {
      ok = this.res.write(frame);
    });
    if (!ok) this.blocked = true;
    return ok;
  }

  /** Ends the response (revoked, shutting down): the app sees the stream end. */
  end(): void {
    if (this.closed) return;
    this.markClosed();
    this.res.cork(() => this.res.end());
  }

  /**
   * Closes the connection of a phone that stopped reading: ending the response would wait for it
   * to read what is buffered, and the connection (kept alive) would hold it until an idle timeout.
   */
  private drop(): void {
    if (this.closed) return;
    this.markClosed();
    this.res.close();
  }

  /** The client went away, or end() ran: nothing may touch the response any more. */
  markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.waiting = [];
    if (this.awaitingPull) clearTimeout(this.awaitingPull);
    if (this.delayedTimer) clearTimeout(this.delayedTimer.timer);
    this.awaitingPull = null;
    this.delayedTimer = null;
    this.onClosed(this);
  }
}
