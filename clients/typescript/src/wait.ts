import { HafatraError } from './errors.js';
import type { MessageDetail, MessageStatus } from './generated.js';
import { sleep } from './retry.js';

/** Statuses a message does not leave: delivered, and the four endings of the spec. */
export const TERMINAL_STATUSES: readonly MessageStatus[] = ['delivered', 'failed', 'expired', 'cancelled', 'unknown'];

export interface WaitOptions {
  /** Give up after this long (a WaitTimeoutError). Default 10 minutes. */
  timeoutMs?: number;
  /** The statuses to stop at. Default TERMINAL_STATUSES; add 'sent' for a network without delivery reports. */
  statuses?: readonly MessageStatus[];
  /** First pause between two reads; it grows by half each time up to maxIntervalMs. Default 500 ms. */
  intervalMs?: number;
  /** Default 10 s. */
  maxIntervalMs?: number;
  signal?: AbortSignal;
}

/** waitForTerminal ran out of time; `last` is the last reading. */
export class WaitTimeoutError extends HafatraError {
  override name = 'WaitTimeoutError';
  constructor(readonly last: MessageDetail) {
    super(`message ${last.id} still ${last.status} when the wait ended`);
  }
}

/** Reads the message, pausing between reads (growing pauses, never a tight loop), until it reaches one of `statuses`. */
export async function waitForTerminal(read: (signal?: AbortSignal) => Promise<MessageDetail>, opts: WaitOptions = {}): Promise<MessageDetail> {
  const statuses = opts.statuses ?? TERMINAL_STATUSES;
  const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
  let interval = opts.intervalMs ?? 500;
  for (;;) {
    const message = await read(opts.signal);
    if (statuses.includes(message.status)) return message;
    const left = deadline - Date.now();
    if (left <= 0) throw new WaitTimeoutError(message);
    await sleep(Math.min(interval, left), opts.signal);
    interval = Math.min(interval * 1.5, opts.maxIntervalMs ?? 10_000);
  }
}
