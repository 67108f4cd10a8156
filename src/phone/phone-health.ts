import type { DeviceClient } from './device-client.js';
import type { Heartbeat } from './protocol.js';
import { randomMsisdn } from './sample-sms.js';

const CARRIERS = [
  { carrierName: 'Telma', displayName: 'YAS' },
  { carrierName: 'Orange MG', displayName: 'Orange' },
  { carrierName: 'Airtel MG', displayName: 'Airtel' },
];
const NETWORKS = ['LTE', 'LTE', 'LTE', 'HSPA+', '5G'];
const APP_VERSION = 'hafatra-sim/1.0';

/**
 * The heartbeat of a simulated phone: one or two SIM cards, a battery that drains and is put
 * back on charge, a network type, uptime, free storage, and the default-SMS-app role (held:
 * the simulator receives SMS). One heartbeat on every connect, then every interval.
 */
export class PhoneHealth {
  readonly simSubscriptionId: number;
  private readonly startedAt = Date.now();
  private readonly sims: NonNullable<Heartbeat['sims']>;
  private readonly networkType: string;
  private readonly startBattery: number;
  private readonly freeStorageBytes: number;
  private timer: NodeJS.Timeout | null = null;
  private latest: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: DeviceClient,
    random: () => number,
    private readonly onError: (err: unknown) => void,
    private readonly onUnlocked: () => void,
  ) {
    const count = random() < 0.3 ? 2 : 1;
    this.sims = Array.from({ length: count }, (_, slot) => {
      const carrier = CARRIERS[Math.floor(random() * CARRIERS.length)]!;
      return { subscriptionId: slot + 1, slotIndex: slot, ...carrier, phoneNumber: randomMsisdn(random), countryIso: 'mg' };
    });
    this.simSubscriptionId = this.sims[0]!.subscriptionId;
    this.networkType = NETWORKS[Math.floor(random() * NETWORKS.length)]!;
    this.startBattery = 40 + Math.floor(random() * 61);
    this.freeStorageBytes = (2 + Math.floor(random() * 30)) * 1024 ** 3;
  }

  start(intervalMs: number): void {
    if (intervalMs > 0) this.timer = setInterval(() => void this.beat(), intervalMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Settles when the latest heartbeat has been answered (or failed). */
  get answered(): Promise<void> {
    return this.latest;
  }

  beat(): Promise<void> {
    this.latest = this.send();
    return this.latest;
  }

  private async send(): Promise<void> {
    try {
      const ack = await this.client.heartbeat(this.current());
      if (ack.inbound.state === 'unlocked') this.onUnlocked();
    } catch (err) {
      this.onError(err);
    }
  }

  current(): Heartbeat {
    const uptimeSeconds = Math.floor((Date.now() - this.startedAt) / 1000);
    // One percent every ten minutes; below 20 % the owner plugs it in and it climbs back.
    const drained = this.startBattery - Math.floor(uptimeSeconds / 600);
    const charging = drained < 20;
    const percent = charging ? Math.min(100, 20 + ((uptimeSeconds / 60) % 80)) : drained;
    return {
      battery: { percent: Math.round(percent), charging },
      networkType: this.networkType,
      uptimeSeconds,
      freeStorageBytes: this.freeStorageBytes,
      appVersion: APP_VERSION,
      sims: this.sims,
      defaultSmsApp: true,
    };
  }
}
