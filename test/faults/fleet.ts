/**
 * Phones for the fault suite: real DeviceClients that do what docs/device-protocol.md asks of
 * the app (heartbeat then claim on every connect, send pushed jobs, report `sending` then the
 * outcome) and remember which phone got which job, so a job handed to two phones shows.
 */
import { createHash } from 'node:crypto';
import type { AppContext } from '../../src/context/app-context.js';
import { createPairingCode } from '../../src/devices/pairing.js';
import { syncDeviceState } from '../../src/dispatch-queue/device-state.js';
import { DeviceClient } from '../../src/phone/device-client.js';
import { DeviceProtocolError, type Job } from '../../src/phone/protocol.js';

export type Outcome = 'delivered' | 'failed';

/** What the phone's radio does with a message, decided by its id so every check can recompute it. */
export function intendedOutcome(messageId: string): Outcome {
  return createHash('sha256').update(messageId).digest()[0]! % 10 === 0 ? 'failed' : 'delivered';
}

export interface FleetPhone {
  deviceId: string;
  client: DeviceClient;
}

export class Fleet {
  readonly phones: FleetPhone[] = [];
  /** messageId → the phones that got it as a job. */
  readonly receivedBy = new Map<string, Set<string>>();
  /** Reports the server refused (the client gave up on them), by error code. */
  readonly refusedReports = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly ctx: AppContext,
    private readonly orgId: string,
  ) {}

  /** Pairs `count` phones through POST /device/v1/pair and connects them to `baseUrl`. */
  async add(count: number, baseUrl: string): Promise<FleetPhone[]> {
    const added: FleetPhone[] = [];
    for (let i = 0; i < count; i++) {
      const { code } = await createPairingCode(this.ctx, this.orgId);
      const { deviceId, token } = await DeviceClient.pair(baseUrl, { code, name: `Fault phone ${this.phones.length + 1}`, model: 'Simulator' });
      // Pacing far above Android's 25/min: the suite measures faults, not pacing.
      await this.ctx.db.query('UPDATE devices SET pacing_per_minute = 100000 WHERE id = $1', [deviceId]);
      await syncDeviceState(this.ctx, deviceId);
      let phone: FleetPhone | undefined;
      const client = new DeviceClient({
        baseUrl,
        token,
        reconnect: { minMs: 50, maxMs: 500 },
        onJobs: (jobs) => this.onJobs(phone!, jobs),
        onConnectionChange: (connected) => {
          if (connected) this.track(this.onConnect(phone!));
        },
      });
      phone = { deviceId, client };
      this.phones.push(phone);
      added.push(phone);
    }
    await Promise.all(added.map((p) => p.client.connect(20_000)));
    return added;
  }

  /** Jobs received by more than one phone: must stay empty. */
  jobsOnTwoPhones(): string[] {
    return [...this.receivedBy].filter(([, phones]) => phones.size > 1).map(([id]) => id);
  }

  /** Jobs the server pushed again to a phone that already had them (allowed by the protocol; the client drops them). */
  duplicatePushes(): number {
    return this.phones.reduce((n, p) => n + p.client.stats.duplicateJobs, 0);
  }

  /** Waits for every report still being sent, then closes every phone. */
  async close(): Promise<void> {
    await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((r) => setTimeout(r, 5000))]);
    await Promise.all(this.phones.map((p) => p.client.close()));
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  private async onConnect(phone: FleetPhone): Promise<void> {
    // The protocol's "after connecting": a heartbeat, then a claim (pushes may come unasked too).
    try {
      await phone.client.heartbeat({ defaultSmsApp: true });
      const { jobs } = await phone.client.claim(100);
      this.onJobs(phone, jobs);
    } catch (err) {
      this.refused(err);
    }
  }

  private onJobs(phone: FleetPhone, jobs: Job[]): void {
    for (const job of jobs) {
      const holders = this.receivedBy.get(job.messageId) ?? new Set<string>();
      const fresh = !holders.has(phone.deviceId);
      holders.add(phone.deviceId);
      this.receivedBy.set(job.messageId, holders);
      if (fresh) this.track(this.send(phone, job));
    }
  }

  /** `sending`, then `failed` or `sent` and `delivered`; a refused report is dropped, as the protocol says. */
  private async send(phone: FleetPhone, job: Job): Promise<void> {
    const { client } = phone;
    try {
      await client.reportStatus({ messageId: job.messageId, status: 'sending' });
      if (intendedOutcome(job.messageId) === 'failed') {
        await client.reportStatus({ messageId: job.messageId, status: 'failed', failureCode: 'no_service' });
        return;
      }
      await client.reportStatus({ messageId: job.messageId, status: 'sent' });
      await client.reportStatus({ messageId: job.messageId, status: 'delivered' });
    } catch (err) {
      this.refused(err);
    }
  }

  private refused(err: unknown): void {
    const code = err instanceof DeviceProtocolError ? err.code : 'exception';
    this.refusedReports.set(code, (this.refusedReports.get(code) ?? 0) + 1);
  }
}
