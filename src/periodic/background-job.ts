import type { Logger } from '../logging/logger.js';
import type { Metrics } from '../metrics/metrics.js';
import { every, type Periodic } from './every.js';

/** One background job: its name (the `job` label and the log's `task`), its interval and its run. */
export interface BackgroundJob {
  name: string;
  intervalMs: number;
  run(): Promise<unknown>;
}

/**
 * Starts a job on its own timer: a throw is logged and counted, and neither skips nor delays
 * another job (when several ran in one loop, the first to throw skipped the rest for that tick).
 * Each run is counted in hafatra_background_runs_total{job,outcome} and timed.
 */
export function startBackgroundJob(host: { log: Logger; metrics: Metrics }, job: BackgroundJob): Periodic {
  const { backgroundRuns, backgroundDuration } = host.metrics;
  return every(job.intervalMs, job.name, host.log, job.run, (outcome, seconds) => {
    backgroundRuns.inc({ job: job.name, outcome });
    backgroundDuration.observe({ job: job.name }, seconds);
  });
}
