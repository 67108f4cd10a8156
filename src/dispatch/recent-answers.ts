import type { FrameReply } from './frame-reply.js';
import { RefMap } from './ref-map.js';

/** Answers that may be different next time: a resend with the same ref runs the frame again. */
const CHANGEABLE = new Set(['internal_error', 'inbound_locked']);

/** How much a socket remembers: enough for every frame of the last ack timeouts, bounded for big claim acks. */
export const RECENT_REFS = 256;
export const RECENT_BYTES = 1024 * 1024;
/**
 * How long an answer is surely remembered (and at most twice that): a phone resends a frame
 * after 10 s without its answer (docs/device-protocol.md), so six of those are long past.
 */
export const RECENT_WINDOW_MS = 60_000;

type Entry = Promise<FrameReply> | FrameReply;

interface Bounds {
  maxRefs: number;
  maxBytes: number;
  windowMs: number;
  now: () => number;
}

/** Whole milliseconds: a fraction would make each socket's window start a number boxed on the heap. */
const clock = () => Math.floor(performance.now());
/** Every socket's bounds but tests': one object, not four fields a socket. */
const DEFAULT_BOUNDS: Bounds = { maxRefs: RECENT_REFS, maxBytes: RECENT_BYTES, windowMs: RECENT_WINDOW_MS, now: clock };

/**
 * The answers to a socket's recent frames by ref. A frame sent again with a ref already answered
 * (or still being answered) gets the same answer without running again: a resent `claim` claims
 * nothing more, a resent report or received SMS writes nothing twice. Oldest first out, past
 * RECENT_REFS refs or RECENT_BYTES of answers, and past two windows of RECENT_WINDOW_MS.
 *
 * The windows are what an idle phone costs: each heartbeat has a ref of its own, and an answer
 * kept until 256 more frames come was, for a phone heartbeating every 30 s, two hours of acks
 * (about 50 KB a socket, half a gigabyte for 10,000 idle phones; bench/README.md). Answers live in
 * two maps, this window's and the one before; when a window ends the older map is dropped, all
 * but the answers still being worked out, which a resend must still wait for.
 *
 * A settled answer is kept as the reply itself, without its promise or a record around it: a
 * fleet reporting thousands of frames a second keeps 256 per socket, each long enough to reach
 * the old generation, so each object less per frame is collector work less.
 */
export class RecentAnswers {
  /** This window's answers, then the previous window's: the answer being worked out (a promise), or the reply once settled. */
  private current = new RefMap<Entry>();
  private previous: RefMap<Entry> | null = null;
  private windowStartedAt: number;
  private bytes = 0;
  private readonly bounds: Bounds;

  constructor(maxRefs = RECENT_REFS, maxBytes = RECENT_BYTES, windowMs = RECENT_WINDOW_MS, now: () => number = clock) {
    const usual = now === clock && maxRefs === RECENT_REFS && maxBytes === RECENT_BYTES && windowMs === RECENT_WINDOW_MS;
    this.bounds = usual ? DEFAULT_BOUNDS : { maxRefs, maxBytes, windowMs, now };
    this.windowStartedAt = now();
  }

  get size(): number {
    return this.current.size + (this.previous?.size ?? 0);
  }

  answer(ref: string, run: () => Promise<FrameReply>): Promise<FrameReply> {
    this.turnWindows();
    const known = this.current.get(ref) ?? this.previous?.get(ref);
    if (known) return known instanceof Promise ? known : Promise.resolve(known);
    const pending = run();
    this.current.set(ref, pending);
    void pending.then((reply) => {
      const map = this.current.get(ref) === pending ? this.current : this.previous?.get(ref) === pending ? this.previous : null;
      if (!map) return;
      if (reply.type === 'error' && CHANGEABLE.has(reply.code)) {
        map.delete(ref);
        return;
      }
      // Set again under the same ref: the map keeps the ref's place, oldest first.
      map.set(ref, reply);
      this.bytes += replyBytes(reply);
      this.evict();
    });
    this.evict();
    return pending;
  }

  /** Past a window the current map becomes the previous one; what was previous is forgotten but for answers in flight. */
  private turnWindows(): void {
    const { now, windowMs } = this.bounds;
    const windows = Math.floor((now() - this.windowStartedAt) / windowMs);
    if (windows < 1) return;
    this.windowStartedAt += windows * windowMs;
    const forgotten = windows === 1 ? [this.previous] : [this.previous, this.current];
    const kept = windows === 1 ? this.current : null;
    this.previous = kept && kept.size > 0 ? kept : null;
    const current = new RefMap<Entry>();
    this.current = current;
    for (const map of forgotten) {
      map?.forEach((entry, ref) => {
        if (entry instanceof Promise) current.set(ref, entry);
        else this.bytes -= replyBytes(entry);
      });
    }
  }

  private withinBounds(): boolean {
    return this.size <= this.bounds.maxRefs && this.bytes <= this.bounds.maxBytes;
  }

  private evict(): void {
    if (this.withinBounds()) return;
    if (!this.previous || this.evictFrom(this.previous)) this.evictFrom(this.current);
  }

  /** Drops the oldest answers of `map` while a bound is passed; true when the map is emptied with one still passed. */
  private evictFrom(map: RefMap<Entry>): boolean {
    while (!this.withinBounds()) {
      const oldest = map.shift();
      if (oldest === undefined) return true;
      if (!(oldest[1] instanceof Promise)) this.bytes -= replyBytes(oldest[1]);
    }
    return false;
  }
}

/** Only claim acks carry much (up to 100 jobs of 1600 characters); the rest is a few dozen bytes. */
function replyBytes(reply: FrameReply): number {
  return reply.type === 'ack' && Array.isArray(reply.jobs) ? jobsBytes(reply.jobs as { body?: unknown }[]) : 128;
}

/**
 * What a claim ack's jobs hold, near enough to bound the memory of what is remembered: their
 * bodies, and a fixed share for the other fields (ids, number, dates). Serializing the jobs to
 * measure them cost as much as sending them.
 */
function jobsBytes(jobs: { body?: unknown }[]): number {
  let bytes = 64;
  for (const job of jobs) bytes += 160 + (typeof job.body === 'string' ? job.body.length : 0);
  return bytes;
}
