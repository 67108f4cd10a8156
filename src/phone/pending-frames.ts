import type { DeviceProtocolError } from './protocol.js';

/** A client frame sent (or waiting to be sent) whose ack or error has not come back yet. */
export interface PendingFrame {
  ref: string;
  text: string;
  attempts: number;
  /** Answers of internal_error so far: the backoff before the next try grows with them. */
  failures: number;
  /** Waiting out a backoff after internal_error: not sent again until the timer fires or a reconnect. */
  retrying: boolean;
  sentAt: number;
  timer: NodeJS.Timeout | null;
  resolve(payload: Record<string, unknown>): void;
  reject(err: DeviceProtocolError): void;
}

/**
 * Frames by ref, in the order they were first sent: after a reconnect they go out again in
 * that order, so a phone's reports for one message reach the server in the order it made them.
 */
export class PendingFrames {
  private readonly byRef = new Map<string, PendingFrame>();

  get size(): number {
    return this.byRef.size;
  }

  add(frame: PendingFrame): void {
    this.byRef.set(frame.ref, frame);
  }

  /** Removes and returns the frame a reply names; undefined for a reply to a frame already settled. */
  take(ref: string): PendingFrame | undefined {
    const frame = this.byRef.get(ref);
    if (!frame) return undefined;
    this.byRef.delete(ref);
    this.stopTimer(frame);
    return frame;
  }

  get(ref: string): PendingFrame | undefined {
    return this.byRef.get(ref);
  }

  all(): PendingFrame[] {
    return [...this.byRef.values()];
  }

  stopTimers(): void {
    for (const frame of this.byRef.values()) this.stopTimer(frame);
  }

  rejectAll(err: DeviceProtocolError): void {
    const frames = this.all();
    this.byRef.clear();
    for (const frame of frames) {
      this.stopTimer(frame);
      frame.reject(err);
    }
  }

  stopTimer(frame: PendingFrame): void {
    if (frame.timer) clearTimeout(frame.timer);
    frame.timer = null;
    frame.retrying = false;
  }
}
