import type { FrameReply } from './frame-reply.js';

/** Answers that may be different next time: a resend with the same ref runs the frame again. */
const CHANGEABLE = new Set(['internal_error', 'inbound_locked']);

/** How much a socket remembers: enough for every frame of the last ack timeouts, bounded for big claim acks. */
export const RECENT_REFS = 256;
export const RECENT_BYTES = 1024 * 1024;

/**
 * The answers to a socket's recent frames by ref. A frame sent again with a ref already answered
 * (or still being answered) gets the same answer without running again: a resent `claim` claims
 * nothing more, a resent report or received SMS writes nothing twice. Oldest first out, past
 * RECENT_REFS refs or RECENT_BYTES of answers.
 *
 * A settled answer is kept as the reply itself, without its promise or a record around it: a
 * fleet reporting thousands of frames a second keeps 256 per socket, each long enough to reach
 * the old generation, so each object less per frame is collector work less.
 */
export class RecentAnswers {
  /** The answer being worked out (a promise), or the reply once settled. */
  private readonly byRef = new Map<string, Promise<FrameReply> | FrameReply>();
  private bytes = 0;

  constructor(
    private readonly maxRefs = RECENT_REFS,
    private readonly maxBytes = RECENT_BYTES,
  ) {}

  get size(): number {
    return this.byRef.size;
  }

  answer(ref: string, run: () => Promise<FrameReply>): Promise<FrameReply> {
    const known = this.byRef.get(ref);
    if (known) return known instanceof Promise ? known : Promise.resolve(known);
    const pending = run();
    this.byRef.set(ref, pending);
    void pending.then((reply) => {
      if (this.byRef.get(ref) !== pending) return;
      if (reply.type === 'error' && CHANGEABLE.has(reply.code)) {
        this.byRef.delete(ref);
        return;
      }
      // Set again under the same ref: the map keeps the ref's place, oldest first.
      this.byRef.set(ref, reply);
      this.bytes += replyBytes(reply);
      this.evict();
    });
    this.evict();
    return pending;
  }

  private evict(): void {
    for (const [ref, entry] of this.byRef) {
      if (this.byRef.size <= this.maxRefs && this.bytes <= this.maxBytes) return;
      this.byRef.delete(ref);
      if (!(entry instanceof Promise)) this.bytes -= replyBytes(entry);
    }
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
