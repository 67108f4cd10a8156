import type { Job } from './protocol.js';

/** Jobs remembered, oldest forgotten first: far more than a phone ever holds at once. */
const DEFAULT_LIMIT = 100_000;

/**
 * The messageIds a client has already handed over. The server sends a job again whenever it
 * cannot know the phone has it (claimed and unreported on reconnect), so the phone drops repeats.
 */
export class SeenJobs {
  private readonly ids = new Set<string>();

  constructor(private readonly limit = DEFAULT_LIMIT) {}

  /** The jobs not seen before, now remembered; repeats are counted in stats.duplicateJobs. */
  fresh(jobs: Job[], stats: { duplicateJobs: number }): Job[] {
    const out: Job[] = [];
    for (const job of jobs) {
      if (this.ids.has(job.messageId)) {
        stats.duplicateJobs += 1;
        continue;
      }
      this.remember(job.messageId);
      out.push(job);
    }
    return out;
  }

  private remember(id: string): void {
    this.ids.add(id);
    if (this.ids.size > this.limit) this.ids.delete(this.ids.values().next().value as string);
  }
}
