import { DeviceClient } from './device-client.js';
import type { PairResult } from './protocol.js';
import { SimulatedPhone, type PhoneCounters, type SimulatedPhoneOptions } from './simulated-phone.js';

export type FleetPhoneOptions = Omit<SimulatedPhoneOptions, 'baseUrl' | 'token' | 'name'>;

export interface FleetOptions extends FleetPhoneOptions {
  baseUrl: string;
  /** Device tokens, one phone each. */
  tokens?: readonly string[];
  /** Pairing codes, exchanged for tokens first (one phone each). */
  codes?: readonly string[];
  /** Phone names: `${namePrefix} ${i + 1}`. Default 'Simulated phone'. */
  namePrefix?: string;
  /** Give up starting when a phone has no connection after this long. Default 30 s. */
  connectTimeoutMs?: number;
}

export interface FleetTotals extends PhoneCounters {
  phones: number;
  connected: number;
  revoked: number;
}

/** Pairing and connecting this many phones at once keeps a small server responsive. */
const STARTUP_CONCURRENCY = 50;

async function inBatches<T, R>(items: readonly T[], size: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) {
    out.push(...(await Promise.all(items.slice(i, i + size).map((item, j) => fn(item, i + j)))));
  }
  return out;
}

/** Exchanges pairing codes for device ids and tokens (POST /device/v1/pair), in the codes' order. */
export function pairCodes(baseUrl: string, codes: readonly string[], namePrefix = 'Simulated phone'): Promise<PairResult[]> {
  return inBatches(codes, STARTUP_CONCURRENCY, (code, i) => DeviceClient.pair(baseUrl, { code, name: `${namePrefix} ${i + 1}`, model: 'Hafatra simulator', appVersion: 'hafatra-sim/1.0' }));
}

/** N simulated phones against one server, with totals across them. */
export class Fleet {
  private constructor(readonly phones: SimulatedPhone[]) {}

  /** Pairs (if given codes) and connects every phone; rejects if any token is refused. */
  static async start(opts: FleetOptions): Promise<Fleet> {
    const { baseUrl, tokens, codes, namePrefix = 'Simulated phone', connectTimeoutMs = 30_000, ...phoneOpts } = opts;
    const paired = codes ? await pairCodes(baseUrl, codes, namePrefix) : [];
    const all = [...(tokens ?? []), ...paired.map((p) => p.token)];
    if (all.length === 0) throw new Error('a fleet needs device tokens or pairing codes');
    const fleet = new Fleet(all.map((token, i) => new SimulatedPhone({ ...phoneOpts, baseUrl, token, name: `${namePrefix} ${i + 1}` })));
    try {
      await inBatches(fleet.phones, STARTUP_CONCURRENCY, (phone) => phone.start(connectTimeoutMs));
    } catch (err) {
      await fleet.stop();
      throw err;
    }
    return fleet;
  }

  totals(): FleetTotals {
    const totals: FleetTotals = {
      phones: this.phones.length,
      connected: 0,
      revoked: 0,
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
    for (const phone of this.phones) {
      if (phone.connected) totals.connected += 1;
      if (phone.revoked) totals.revoked += 1;
      const c = phone.snapshot();
      for (const k of Object.keys(c) as (keyof PhoneCounters)[]) totals[k] += c[k];
    }
    return totals;
  }

  /** When the jobs frame carrying this message reached its phone (nowMs()), if it did. */
  arrivalOf(messageId: string): number | undefined {
    for (const phone of this.phones) {
      const at = phone.jobArrivals.get(messageId);
      if (at !== undefined) return at;
    }
    return undefined;
  }

  /** Every phone's send latencies (job arrival → sent/failed acknowledged), in ms. */
  sendLatencies(): number[] {
    return this.phones.flatMap((p) => p.sendLatenciesMs);
  }

  /** The latest errors of every phone (at most `max`). */
  recentErrors(max = 10): string[] {
    return this.phones.flatMap((p) => p.recentErrors.map((e) => `${p.name}: ${e}`)).slice(-max);
  }

  async stop(): Promise<void> {
    await Promise.all(this.phones.map((p) => p.stop()));
  }
}
