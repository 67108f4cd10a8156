import { randomBytes } from 'node:crypto';
import type { DeviceClient } from './device-client.js';
import { DeviceProtocolError, type IncomingSms } from './protocol.js';
import { randomIncomingSms, splitIntoParts } from './sample-sms.js';

const LOCKED_RECHECK_MS = 5000;

/**
 * Received SMS at a given rate (exponential gaps, like independent senders): a long body is
 * reported in parts the way Android delivers a concatenated SMS. One refused with
 * inbound_locked is kept and sent again once a heartbeat says inbound is unlocked; the phone
 * asks for that heartbeat a little later rather than waiting for the next periodic one.
 */
export class IncomingSimulator {
  private timer: NodeJS.Timeout | null = null;
  private recheck: NodeJS.Timeout | null = null;
  private locked: IncomingSms[] = [];
  private seq = 0;
  private partRef = 0;
  private readonly idPrefix = randomBytes(4).toString('hex');

  constructor(
    private readonly client: DeviceClient,
    private readonly random: () => number,
    private readonly counters: { incomingSent: number; incomingLocked: number },
    private readonly onError: (err: unknown) => void,
    private readonly simSubscriptionId: number,
    private readonly requestHeartbeat: () => void,
  ) {}

  start(perMinute: number): void {
    if (perMinute <= 0) return;
    const next = () => {
      const gap = (-Math.log(1 - this.random()) * 60_000) / perMinute;
      this.timer = setTimeout(() => {
        this.receive();
        next();
      }, gap);
    };
    next();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.recheck) clearTimeout(this.recheck);
    this.timer = this.recheck = null;
  }

  retryLocked(): void {
    const waiting = this.locked;
    this.locked = [];
    for (const sms of waiting) void this.report(sms);
  }

  private receive(): void {
    const { from, body } = randomIncomingSms(this.random);
    const receivedAt = new Date().toISOString();
    const parts = splitIntoParts(body);
    const ref = (this.partRef = (this.partRef + 1) % 256);
    parts.forEach((text, i) => {
      const clientId = `${this.idPrefix}-${++this.seq}`;
      const part = parts.length > 1 ? { ref, index: i + 1, count: parts.length } : undefined;
      void this.report({ clientId, from, body: text, receivedAt, simSubscriptionId: this.simSubscriptionId, ...(part ? { part } : {}) });
    });
  }

  private async report(sms: IncomingSms): Promise<void> {
    try {
      await this.client.sendIncoming(sms);
      this.counters.incomingSent += 1;
    } catch (err) {
      if (err instanceof DeviceProtocolError && err.code === 'inbound_locked') {
        this.counters.incomingLocked += 1;
        this.locked.push(sms);
        this.recheck ??= setTimeout(() => {
          this.recheck = null;
          this.requestHeartbeat();
        }, LOCKED_RECHECK_MS);
        return;
      }
      this.onError(err);
    }
  }
}
