import type { AppContext } from '../context/app-context.js';
import type { DeviceSession } from './device-session.js';
import { MAX_CLAIM } from '../dispatch-queue/claim.js';
import { workWaitingFor } from '../dispatch-queue/work-waiting.js';

/**
 * How many unreported jobs one phone may hold, unless it asks for fewer (`?maxJobs=` on the socket
 * URL): enough to keep its SIM busy, not to starve others.
 */
export const PUSH_WINDOW = 100;
const PUMP_INTERVAL_MS = 30_000;
/** The least a phone claims in a round of pushInTurns: rounds of one message each would multiply claims. */
const MIN_SHARE = 10;

/** `?maxJobs=` of the socket URL: absent means PUSH_WINDOW; a number out of 1..PUSH_WINDOW is refused. */
export function parseMaxJobs(raw: string | undefined): number | null {
  if (raw === undefined || raw === '') return PUSH_WINDOW;
  if (!/^\d{1,3}$/.test(raw)) return null;
  const n = Number(raw);
  return n >= 1 && n <= PUSH_WINDOW ? n : null;
}

/**
 * Hands work to the phones connected to this process as soon as it exists: on a work signal, on
 * connect, when a phone settles jobs, and when its pacing window reopens. A slow pump of every
 * session is the backstop for a lost signal.
 */
export class Pusher {
  private readonly byOrg = new Map<string, Set<DeviceSession>>();
  private readonly pump: NodeJS.Timeout;
  private turn = 0;

  constructor(
    private readonly ctx: AppContext,
    private readonly sessions: Map<string, DeviceSession>,
  ) {
    this.pump = setInterval(() => this.pumpAll(), PUMP_INTERVAL_MS);
    this.pump.unref();
  }

  track(s: DeviceSession): void {
    let set = this.byOrg.get(s.principal.orgId);
    if (!set) this.byOrg.set(s.principal.orgId, (set = new Set()));
    set.add(s);
  }

  untrack(s: DeviceSession): void {
    const set = this.byOrg.get(s.principal.orgId);
    set?.delete(s);
    if (set?.size === 0) this.byOrg.delete(s.principal.orgId);
  }

  /** Work was queued (`count` messages, when known): the phones it is for claim it. */
  signal(orgId: string, deviceId: string | null, count?: number): void {
    if (deviceId) {
      const s = this.sessions.get(deviceId);
      if (s) void this.push(s);
      return;
    }
    const set = this.byOrg.get(orgId);
    if (!set) return;
    // Each signal starts with the next phone, so the same phones are not always served first.
    const all = [...set];
    const start = this.turn++ % all.length;
    const phones = all.map((_, i) => all[(start + i) % all.length]!);
    if (count === undefined) for (const s of phones) void this.push(s);
    else void this.pushInTurns(phones, count);
  }

  /**
   * A burst spread over the fleet: each phone claims its share of what was queued, and those
   * whose share came back full go round again, until the work or their room runs out. Each phone
   * claiming its whole room, the first two of five phones took a 200-message burst (100 each)
   * and the others nothing. The share comes with the signal: reading the queue's length first
   * delayed the rounds by a round trip, and phones refilling after their reports took the burst
   * meanwhile (7 of 20 phones of the fleet test got jobs).
   *
   * A round asks only as many phones as the work left needs (a send of 50 to a fleet of 40 asks
   * 5, at 10 each): asking them all made a claim call for each phone that found the queue
   * already emptied by the first five. Phones not asked yet take the place of those that came
   * back short (paced, resting, no room), until every phone has been asked. Phones ready to claim
   * at once are asked first: a phone whose own push is running, or that has no room, would come
   * back empty, and its share would wait a whole round for another phone.
   */
  private async pushInTurns(all: DeviceSession[], count: number): Promise<void> {
    const share = Math.min(MAX_CLAIM, Math.max(MIN_SHARE, Math.ceil(count / all.length)));
    const phones = all.filter((s) => s.ready).concat(all.filter((s) => !s.ready));
    let left = count;
    let asked = 0;
    let again: DeviceSession[] = [];
    // Once the signalled messages are taken, phones refill as they report (settled): another
    // round would mostly claim nothing.
    while (left > 0) {
      const more = Math.max(0, Math.ceil(left / share) - again.length);
      const round = again.concat(phones.slice(asked, asked + more));
      asked += more;
      if (round.length === 0) break;
      const pushed = await Promise.all(round.map((s) => this.push(s, share)));
      left -= pushed.reduce((sum, p) => sum + p.claimed, 0);
      again = round.filter((_, i) => pushed[i]!.full);
    }
  }

  /**
   * The phone reported jobs done. Refilled from half empty: one claim of many jobs rather than
   * one claim per report. Most reports come when nothing waits (the work signal already handed
   * it out), so the phones settling in one turn first ask one Redis call per organization whether
   * any work waits for them: a claim call per `sent` report was the fleet's most frequent Redis
   * call. A message queued after that answer still reaches the phone through its work signal.
   */
  settled(s: DeviceSession, count: number): void {
    if (s.settled(count)) void this.pushIfWorkWaits(s);
  }

  /**
   * A push for a phone that may have nothing to take (a report settled, a socket opened): the
   * phones asking in one turn share one Redis call per organization, and only those with work
   * waiting claim (src/dispatch-queue/work-waiting.ts).
   */
  async pushIfWorkWaits(s: DeviceSession): Promise<void> {
    if (await workWaitingFor(this.ctx, s.principal)) await this.push(s);
  }

  pumpAll(): void {
    for (const s of this.sessions.values()) void this.push(s);
  }

  stop(): void {
    clearInterval(this.pump);
  }

  /**
   * Claims for the phone until its room or the work runs out; with `share`, one claim of at most
   * that many (pushInTurns goes round the phones). `full` when the last claim came back full: there
   * may be more. A push already running for the phone is asked to go round once more instead.
   */
  async push(s: DeviceSession, share?: number): Promise<{ full: boolean; claimed: number }> {
    if (!s.startPush()) return { full: false, claimed: 0 };
    let full = false;
    let claimed = 0;
    try {
      do {
        const room = s.room(Math.min(MAX_CLAIM, share ?? MAX_CLAIM));
        if (room <= 0 || s.closed) break;
        const result = await this.ctx.dispatch.claim(s.principal, room);
        // Jobs claimed for a socket that closed meanwhile stay claimed by the phone: they are
        // sent again when it reconnects, or withdrawn for another phone if it does not.
        if (result.jobs.length > 0 && s.send({ type: 'jobs', jobs: result.jobs })) s.took(result.jobs.length);
        if (result.retryAfterMs > 0) s.retryLater(result.retryAfterMs + 50, () => void this.push(s));
        claimed += result.jobs.length;
        full = result.jobs.length === room;
        if (full && share === undefined) s.askAnotherRound();
      } while (s.anotherRound());
    } catch (err) {
      this.ctx.log.warn({ err, deviceId: s.deviceId }, 'push failed');
      full = false;
    } finally {
      s.endPush();
    }
    return { full, claimed };
  }
}
