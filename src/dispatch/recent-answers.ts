import type { FrameReply } from './frame-reply.js';

/** Answers that may be different next time: a resend with the same ref runs the frame again. */
const CHANGEABLE = new Set(['internal_error', 'inbound_locked']);

/** How much a socket remembers: enough for every frame of the last ack timeouts, bounded for big claim acks. */
export const RECENT_REFS = 256;
export const RECENT_BYTES = 1024 * 1024;

interface Entry {
  reply: Promise<FrameReply>;
  bytes: number;
}

/**
 * The answers to a socket's recent frames by ref. A frame sent again with a ref already answered
 * (or still being answered) gets the same answer without running again: a resent `claim` claims
 * nothing more, a resent report or received SMS writes nothing twice. Oldest first out, past
 * RECENT_REFS refs or RECENT_BYTES of answers.
 */
export class RecentAnswers {
  private readonly byRef = new Map<string, Entry>();
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
    if (known) return known.reply;
    const entry: Entry = { reply: run(), bytes: 0 };
    this.byRef.set(ref, entry);
    void entry.reply.then((reply) => {
      if (this.byRef.get(ref) !== entry) return;
      if (reply.type === 'error' && CHANGEABLE.has(reply.code)) {
        this.byRef.delete(ref);
        return;
      }
      // Only claim acks carry much (up to 100 jobs of 1600 characters); the rest is a few dozen bytes.
      entry.bytes = reply.type === 'ack' && Array.isArray(reply.jobs) ? jobsBytes(reply.jobs as { body?: unknown }[]) : 128;
      this.bytes += entry.bytes;
      this.evict();
    });
    this.evict();
    return entry.reply;
  }

  private evict(): void {
    for (const [ref, entry] of this.byRef) {
      if (this.byRef.size <= this.maxRefs && this.bytes <= this.maxBytes) return;
      this.byRef.delete(ref);
      this.bytes -= entry.bytes;
    }
  }
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
