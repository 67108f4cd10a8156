import { randomBytes } from 'node:crypto';
import type { EndpointSlots } from './endpoint-slots.js';

/** A job expected to wait longer than this for its endpoint goes back to BullMQ (delayed). */
export const MAX_LOCAL_WAIT_MS = 250;
const MIN_RETRY_MS = 100;
const MAX_RETRY_MS = 5000;
/**
 * A job sent back comes again after this share of the line's expected wait. The estimate is an
 * attempt's moving average under load, which overstates the wait once the line speeds up: jobs
 * back after the whole estimate found the line long gone, and a burst ended in seconds of
 * trickle. Coming back at half costs a few more bounces of jobs that are still early (the
 * webhooks figures: bench/README.md, "Measurements behind the code").
 */
const RETRY_SHARE_OF_WAIT = 0.5;
/** When every slot of an endpoint is held by other processes, ask again this often. */
const GROW_RETRY_MS = 50;

export type Admission = { ok: false; retryInMs: number };

/** What a job gets: one promise per prepared work, settled when its lane has run it. */
export type Run<R> = { ok: true; results: Array<Promise<R>> } | Admission;

interface Task<W, R> {
  work: W;
  resolve(result: R): void;
  reject(error: unknown): void;
}

interface EndpointState<W, R> {
  id: string;
  /** Works waiting for a lane, oldest first. */
  waiting: Array<Task<W, R>>;
  /** Deliveries of admitted jobs still being prepared (claimed in Postgres). */
  reserved: number;
  lanes: number;
  growing: boolean;
  /** Start time of each lane's attempt in flight. */
  inFlight: Map<string, number>;
  /** Moving average of an attempt's duration to this endpoint. */
  attemptMs: number;
  /** Jobs waiting here for room in the endpoint's line. */
  roomWaiters: Array<() => void>;
}

export interface EndpointLanes<W, R> {
  /**
   * Admits a job of `count` deliveries of one endpoint, or says when to come back. An admitted
   * job's works come from prepare(rounds), where rounds is how many times the endpoint's slots
   * must turn over before its last work starts, at worst; each work then runs on a lane.
   */
  run(endpointId: string, count: number, prepare: (rounds: number) => Promise<W[]>): Promise<Run<R>>;
}

/**
 * Per endpoint, a line of works and up to `limit` lanes: a lane holds one of the endpoint's
 * Redis slots for as long as the line has work, so a burst costs a few Redis calls, not one per
 * delivery. A job joins the line when the endpoint clears it within MAX_LOCAL_WAIT_MS (or the
 * endpoint is idle here); a slow or hanging endpoint's jobs go back to BullMQ for about half as
 * long as its line would take, so they never hold more than a line's worth of worker slots.
 */
export function endpointLanes<W, R>(slots: EndpointSlots, limit: number, attempt: (work: W) => Promise<R>): EndpointLanes<W, R> {
  const processTag = randomBytes(6).toString('hex');
  let laneSeq = 0;
  // One small record per endpoint this process has delivered to.
  const states = new Map<string, EndpointState<W, R>>();
  const stateOf = (id: string) => {
    let s = states.get(id);
    if (!s) states.set(id, (s = { id, waiting: [], reserved: 0, lanes: 0, growing: false, inFlight: new Map(), attemptMs: 0, roomWaiters: [] }));
    return s;
  };

  /** Time until `count` more works would start: the line ahead, `limit` at a time, each as long as an attempt. */
  const expectedWait = (s: EndpointState<W, R>, count: number) => {
    let oldest = 0;
    for (const startedAt of s.inFlight.values()) oldest = Math.max(oldest, Date.now() - startedAt);
    return ((s.waiting.length + s.reserved + count) / limit) * Math.max(s.attemptMs, oldest);
  };

  const waitForRoom = (s: EndpointState<W, R>) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        const i = s.roomWaiters.indexOf(wake);
        if (i >= 0) s.roomWaiters.splice(i, 1);
        resolve();
      };
      const timer = setTimeout(wake, MAX_LOCAL_WAIT_MS);
      s.roomWaiters.push(wake);
    });

  /**
   * Reserves the job's place in the line (or says when to come back) and returns the rounds it
   * waits at worst. The check and the reservation run with no await between them: when they
   * did not, every job woken at once passed the check before any reserved, and a line meant to
   * hold two rounds of 50 held 1,000 to 1,450 works, with up to 2,250 more being claimed
   * (webhooks bench).
   */
  async function admit(s: EndpointState<W, R>, count: number): Promise<Admission | { rounds: number }> {
    for (;;) {
      const ahead = s.waiting.length + s.reserved;
      const idle = ahead === 0 && s.inFlight.size === 0;
      const wait = idle ? 0 : expectedWait(s, count);
      if (wait > MAX_LOCAL_WAIT_MS) {
        // No line here, only other jobs' claims in progress: they may well find nothing (an
        // endpoint deleted with its deliveries). Sent back on the last attempts' average, jobs
        // of such an endpoint bounced off each other's claims in BullMQ several times a second
        // each, for as long as any of them was left.
        if (s.waiting.length === 0 && s.inFlight.size === 0) {
          await waitForRoom(s);
          continue;
        }
        return { ok: false, retryInMs: Math.min(MAX_RETRY_MS, Math.max(MIN_RETRY_MS, wait * RETRY_SHARE_OF_WAIT)) * (0.75 + Math.random() / 2) };
      }
      // A short line: join it, but keep at most two rounds of works waiting so a job that
      // arrives later for another endpoint still finds worker slots.
      if (idle || ahead < 2 * limit) {
        s.reserved += count;
        return { rounds: Math.ceil((ahead + count) / limit) };
      }
      await waitForRoom(s);
    }
  }

  async function lane(s: EndpointState<W, R>, name: string): Promise<void> {
    let refreshedAt = Date.now();
    try {
      for (let task = s.waiting.shift(); task; task = s.waiting.shift()) {
        // A job waiting for room is admitted only below two rounds: woken sooner, it would only
        // check and wait again (a timer and a promise per delivery started).
        if (s.waiting.length + s.reserved < 2 * limit) s.roomWaiters[0]?.();
        if (Date.now() - refreshedAt > slots.holdMs / 2) {
          await slots.refresh(s.id, name).catch(() => undefined);
          refreshedAt = Date.now();
        }
        const startedAt = Date.now();
        s.inFlight.set(name, startedAt);
        try {
          task.resolve(await attempt(task.work));
        } catch (err) {
          task.reject(err);
        } finally {
          s.inFlight.delete(name);
          s.attemptMs = s.attemptMs === 0 ? Date.now() - startedAt : 0.8 * s.attemptMs + 0.2 * (Date.now() - startedAt);
        }
      }
    } finally {
      s.lanes--;
      await slots.release(s.id, name);
    }
  }

  async function grow(s: EndpointState<W, R>): Promise<void> {
    const want = Math.min(limit - s.lanes, s.waiting.length);
    if (s.growing || want <= 0) return;
    s.growing = true;
    const names = Array.from({ length: want }, () => `${processTag}:${++laneSeq}`);
    const granted = await slots.acquire(s.id, names).catch(() => 0);
    s.growing = false;
    s.lanes += granted;
    for (const name of names.slice(0, granted)) void lane(s, name);
    // No lane at all: the slots are held elsewhere; they free up as those attempts end.
    if (s.lanes === 0 && s.waiting.length > 0) setTimeout(() => void grow(s), GROW_RETRY_MS);
    else if (granted === want) void grow(s);
  }

  return {
    async run(endpointId, count, prepare) {
      const s = stateOf(endpointId);
      const admission = await admit(s, count);
      if ('ok' in admission) return admission;
      let works: W[] = [];
      try {
        works = await prepare(admission.rounds);
      } finally {
        s.reserved -= count;
        // A claim that found all it reserved leaves the line as long as it was: the jobs waiting
        // here would only wait again. One that came back short (deliveries gone, or failed) made
        // room, and they decide again now.
        if (works.length < count) for (const wake of [...s.roomWaiters]) wake();
      }
      const results = works.map((work) => new Promise<R>((resolve, reject) => s.waiting.push({ work, resolve, reject })));
      void grow(s);
      return { ok: true, results };
    },
  };
}
