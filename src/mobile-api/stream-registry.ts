import type { AppContext } from '../context/app-context.js';
import type { AppEvent, AppEventSignal } from '../devices/app-events.js';
import type { AppStream } from './app-stream.js';

/** Messages of an organization-wide signal each woken phone is counted on to take (its pacing's minute). */
const SHARE_PER_WAKE = 25;
/** How long the phones woken in turn have before the others are woken for what they left. */
const BACKSTOP_MS = 500;
const ENQUEUED: AppEvent = { event: 'MessageEnqueued' };

/** The event streams this process holds, by device and by organization, and how they are woken. */
export class StreamRegistry {
  private readonly byDevice = new Map<string, Set<AppStream>>();
  private readonly byOrg = new Map<string, Set<AppStream>>();
  private readonly backstops = new Map<string, NodeJS.Timeout>();
  private turn = 0;

  constructor(private readonly ctx: AppContext) {}

  add(s: AppStream): void {
    addTo(this.byDevice, s.deviceId, s);
    addTo(this.byOrg, s.device.orgId, s);
  }

  remove(s: AppStream): void {
    removeFrom(this.byDevice, s.deviceId, s);
    removeFrom(this.byOrg, s.device.orgId, s);
  }

  *all(): Generator<AppStream> {
    for (const set of this.byDevice.values()) yield* set;
  }

  count(): number {
    let n = 0;
    for (const set of this.byDevice.values()) n += set.size;
    return n;
  }

  /** A copy: sending may close a stream, which leaves the sets. */
  of(orgId: string, deviceId: string | null): AppStream[] {
    return [...((deviceId ? this.byDevice.get(deviceId) : this.byOrg.get(orgId)) ?? [])];
  }

  deliver(signal: AppEventSignal): void {
    for (const s of this.of(signal.orgId, signal.deviceId)) {
      for (const e of signal.events) {
        if (signal.delayMs) s.sendLater(e, signal.delayMs);
        else s.send(e);
      }
    }
  }

  /** The phone pulled: its streams may wake it again. False when this process holds none. */
  pulled(deviceId: string): boolean {
    const streams = this.of('', deviceId);
    for (const s of streams) s.pulled();
    return streams.length > 0;
  }

  /**
   * Work for one phone wakes it. Work for the organization wakes, in turn, as many of its phones
   * as it needs (a pull takes up to 100; a paced phone ~25 a minute): 200 phones pulling for each
   * send cost 200 pulls where one does. Should those leave work queued (paced, resting), the
   * others are woken a moment later.
   */
  wake(orgId: string, deviceId: string | null, count?: number): void {
    if (deviceId) {
      for (const s of this.of(orgId, deviceId)) s.send(ENQUEUED);
      return;
    }
    const all = this.of(orgId, null);
    if (all.length === 0) return;
    const woken = count === undefined ? all.length : Math.min(all.length, Math.ceil(count / SHARE_PER_WAKE));
    const start = this.turn++ % all.length;
    for (let i = 0; i < woken; i++) all[(start + i) % all.length]!.send(ENQUEUED);
    if (woken < all.length) this.backstop(orgId);
  }

  /** Every stream pulls once (signals may have been missed). */
  wakeAll(): void {
    for (const s of this.all()) s.send(ENQUEUED);
  }

  stop(): void {
    for (const timer of this.backstops.values()) clearTimeout(timer);
    this.backstops.clear();
  }

  private backstop(orgId: string): void {
    if (this.backstops.has(orgId)) return;
    const timer = setTimeout(() => {
      this.backstops.delete(orgId);
      this.ctx.redis
        .zcard(this.ctx.keys.org(orgId).orgQueue())
        .then((left) => {
          if (left > 0) this.wake(orgId, null);
        })
        .catch((err: unknown) => this.ctx.log.warn({ err, orgId }, 'app phones not woken for what is left'));
    }, BACKSTOP_MS);
    timer.unref();
    this.backstops.set(orgId, timer);
  }
}

function addTo<K>(map: Map<K, Set<AppStream>>, key: K, s: AppStream): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(s);
}

function removeFrom<K>(map: Map<K, Set<AppStream>>, key: K, s: AppStream): void {
  const set = map.get(key);
  set?.delete(s);
  if (set?.size === 0) map.delete(key);
}
