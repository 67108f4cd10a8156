import { DeviceClient, type DeviceClientOptions } from './device-client.js';
import { DeviceProtocolError, type Job } from './protocol.js';
import { PhoneHealth } from './phone-health.js';
import { IncomingSimulator } from './incoming-simulator.js';

export interface SimulatedPhoneOptions {
  baseUrl: string;
  token: string;
  name?: string;
  /** Time the radio takes to send one SMS (between `sending` and `sent`). Default 200 ms. */
  latencyMs?: number;
  /** Latency varies by ± this fraction. Default 0.5. */
  latencyJitter?: number;
  /** Fraction of sends that fail with generic_failure. Default 0.02. */
  failureRate?: number;
  /** Fraction of sent messages that get a delivery report. Default 0.9. */
  deliveryRate?: number;
  /** Time from `sent` to `delivered`. Default 500 ms (with the same jitter). */
  deliveryDelayMs?: number;
  /** SMS sent at the same time; a real phone sends one after another. Default 1. */
  concurrency?: number;
  /** Heartbeat period (one is also sent on every connect). 0: only on connect. Default 60 s. */
  heartbeatIntervalMs?: number;
  /** Received SMS per minute (mobile-money notifications among them). Default 0. */
  incomingPerMinute?: number;
  /** Keep messageId → arrival time of each job (for 202 → jobs latency). Default true. */
  recordArrivals?: boolean;
  ackTimeoutMs?: number;
  reconnect?: DeviceClientOptions['reconnect'];
  /** Backoff before sending again a frame answered internal_error. */
  retry?: DeviceClientOptions['retry'];
  /** The most unreported jobs the server may push to this phone (1..100). */
  maxJobs?: number;
  /** Source of randomness (tests pass a seeded one). Default Math.random. */
  random?: () => number;
  /** Called once per message this phone sent or failed, when the server acknowledged the report. */
  onOutcome?: (messageId: string, status: 'sent' | 'failed') => void;
}

export interface PhoneCounters {
  jobsReceived: number;
  sent: number;
  delivered: number;
  failed: number;
  /** Jobs the server took back (a `withdrawn` frame, or `sending` refused): dropped unsent. */
  withdrawn: number;
  incomingSent: number;
  /** Received SMS refused with inbound_locked (kept and sent again after the next heartbeat). */
  incomingLocked: number;
  errors: number;
  reconnects: number;
  duplicateJobs: number;
  resends: number;
  /** Frames sent again after the server answered internal_error. */
  retries: number;
}

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes. */
export const nowMs = (): number => performance.timeOrigin + performance.now();

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const MAX_ERRORS_KEPT = 20;

/**
 * An Android phone running Hafatra, simulated: takes the jobs the server pushes, sends each
 * (`sending`, latency, then `sent` or `failed`), later reports `delivered` for a share of them,
 * sends heartbeats and receives SMS. Counters and timings are for tests, the bench and the CLI.
 */
export class SimulatedPhone {
  readonly name: string;
  readonly client: DeviceClient;
  readonly counters: PhoneCounters = {
    jobsReceived: 0,
    sent: 0,
    delivered: 0,
    failed: 0,
    withdrawn: 0,
    incomingSent: 0,
    incomingLocked: 0,
    errors: 0,
    reconnects: 0,
    duplicateJobs: 0,
    resends: 0,
    retries: 0,
  };
  /** messageId → when its jobs frame arrived (nowMs()). */
  readonly jobArrivals = new Map<string, number>();
  /** Per message: from the jobs frame arriving to `sent`/`failed` acknowledged, in ms. */
  readonly sendLatenciesMs: number[] = [];
  /** The latest errors, newest last. */
  readonly recentErrors: string[] = [];
  revoked = false;

  private queue: { job: Job; arrivedAt: number }[] = [];
  private active = 0;
  private stopped = false;
  private readonly deliveryTimers = new Set<NodeJS.Timeout>();
  private readonly random: () => number;
  private readonly health: PhoneHealth;
  private readonly incoming: IncomingSimulator;

  constructor(private readonly opts: SimulatedPhoneOptions) {
    this.random = opts.random ?? Math.random;
    this.name = opts.name ?? 'Simulated phone';
    this.client = new DeviceClient({
      baseUrl: opts.baseUrl,
      token: opts.token,
      ackTimeoutMs: opts.ackTimeoutMs,
      reconnect: opts.reconnect,
      retry: opts.retry,
      maxJobs: opts.maxJobs,
      onJobs: (jobs) => this.onJobs(jobs),
      onWithdrawn: (ids) => this.onWithdrawn(ids),
      onRevoked: () => {
        this.revoked = true;
      },
      onConnectionChange: (connected) => {
        if (connected) void this.health.beat();
      },
    });
    const fail = (err: unknown) => this.fail(err);
    this.health = new PhoneHealth(this.client, this.random, fail, () => this.incoming.retryLocked());
    this.incoming = new IncomingSimulator(this.client, this.random, this.counters, fail, this.health.simSubscriptionId, () => void this.health.beat());
  }

  get connected(): boolean {
    return this.client.connected;
  }

  /** Jobs received and not yet sent or failed. */
  get backlog(): number {
    return this.queue.length + this.active;
  }

  /** Connects (rejects on a refused token, or after timeoutMs), then heartbeats and receives SMS at the configured rates. */
  async start(timeoutMs?: number): Promise<void> {
    await this.client.connect(timeoutMs);
    // The connect heartbeat reports the default-SMS-app role: received SMS sent before it is
    // answered would be refused as inbound_locked.
    await this.health.answered;
    this.health.start(this.opts.heartbeatIntervalMs ?? 60_000);
    this.incoming.start(this.opts.incomingPerMinute ?? 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.health.stop();
    this.incoming.stop();
    for (const t of this.deliveryTimers) clearTimeout(t);
    this.deliveryTimers.clear();
    await this.client.close();
  }

  /** Counters with the client's own (reconnects, resends, duplicate jobs) filled in. */
  snapshot(): PhoneCounters {
    const { reconnects, resends, duplicateJobs, retries } = this.client.stats;
    return { ...this.counters, reconnects, resends, duplicateJobs, retries };
  }

  private onJobs(jobs: Job[]): void {
    const at = nowMs();
    this.counters.jobsReceived += jobs.length;
    if (this.opts.recordArrivals ?? true) for (const job of jobs) this.jobArrivals.set(job.messageId, at);
    for (const job of jobs) this.queue.push({ job, arrivedAt: at });
    this.drain();
  }

  private drain(): void {
    const concurrency = this.opts.concurrency ?? 1;
    while (!this.stopped && this.active < concurrency && this.queue.length > 0) {
      const { job, arrivedAt } = this.queue.shift()!;
      this.active += 1;
      void this.send(job, arrivedAt).finally(() => {
        this.active -= 1;
        this.drain();
      });
    }
  }

  private async send(job: Job, arrivedAt: number): Promise<void> {
    const messageId = job.messageId;
    try {
      // Android gets the SMS only once the server acknowledged `sending`: a refusal means the job
      // was withdrawn and went to another phone.
      if (!(await this.startSending(messageId))) return;
      await sleep(this.jittered(this.opts.latencyMs ?? 200));
      if (this.stopped) return;
      const failed = this.random() < (this.opts.failureRate ?? 0.02);
      await this.client.reportStatus(failed ? { messageId, status: 'failed', failureCode: 'generic_failure' } : { messageId, status: 'sent' });
      this.sendLatenciesMs.push(nowMs() - arrivedAt);
      this.opts.onOutcome?.(messageId, failed ? 'failed' : 'sent');
      if (failed) this.counters.failed += 1;
      else {
        this.counters.sent += 1;
        if (this.random() < (this.opts.deliveryRate ?? 0.9)) this.deliverLater(messageId);
      }
    } catch (err) {
      this.fail(err);
    }
  }

  private async startSending(messageId: string): Promise<boolean> {
    try {
      await this.client.reportStatus({ messageId, status: 'sending' });
      return true;
    } catch (err) {
      if (!(err instanceof DeviceProtocolError && err.code === 'invalid_transition')) throw err;
      this.counters.withdrawn += 1;
      return false;
    }
  }

  /** A `withdrawn` frame: jobs not started are dropped (one already started was refused or is the phone's). */
  private onWithdrawn(messageIds: string[]): void {
    const gone = new Set(messageIds);
    const before = this.queue.length;
    this.queue = this.queue.filter((q) => !gone.has(q.job.messageId));
    this.counters.withdrawn += before - this.queue.length;
  }

  private deliverLater(messageId: string): void {
    const timer = setTimeout(
      () => {
        this.deliveryTimers.delete(timer);
        this.client.reportStatus({ messageId, status: 'delivered' }).then(
          () => {
            this.counters.delivered += 1;
          },
          (err) => this.fail(err),
        );
      },
      this.jittered(this.opts.deliveryDelayMs ?? 500),
    );
    this.deliveryTimers.add(timer);
  }

  private jittered(ms: number): number {
    const jitter = this.opts.latencyJitter ?? 0.5;
    return Math.max(0, ms * (1 - jitter + 2 * jitter * this.random()));
  }

  private fail(err: unknown): void {
    // Frames cut short by stop() or a revoke are the expected end of a run, not errors.
    if (err instanceof DeviceProtocolError && (err.code === 'closed' || err.code === 'revoked')) return;
    this.counters.errors += 1;
    const text = err instanceof DeviceProtocolError ? `${err.code}: ${err.message}` : String(err);
    this.recentErrors.push(text);
    if (this.recentErrors.length > MAX_ERRORS_KEPT) this.recentErrors.shift();
  }
}
