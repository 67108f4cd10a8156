import type { Logger } from '../logging/logger.js';
import type { Metrics } from '../infrastructure/metrics.js';

export interface Periodic {
  stop(): Promise<void>;
  /** Runs the task now (tests, and a nudge after a known event). */
  runNow(): Promise<void>;
}

/** Where a periodic task reports: its failures to the log, each run to the background-job metrics. */
export interface PeriodicHost {
  log: Logger;
  metrics: Pick<Metrics, 'backgroundRuns' | 'backgroundDuration'>;
}

/**
 * Runs a task every intervalMs on its own timer, never two at once, logging (not throwing) its
 * failures: a loop that dies on one Redis hiccup would silently stop recovering messages, and
 * tasks that shared one loop skipped each other when one threw. Each run is counted in
 * hafatra_background_runs_total{job,outcome} and timed, `name` being the job.
 */
export function every(intervalMs: number, name: string, host: PeriodicHost, task: () => Promise<unknown>): Periodic {
  const { backgroundRuns, backgroundDuration } = host.metrics;
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = () => {
    if (running) return running;
    const started = performance.now();
    const done = (outcome: 'ok' | 'error') => {
      backgroundRuns.inc({ job: name, outcome });
      backgroundDuration.observe({ job: name }, (performance.now() - started) / 1000);
    };
    running = task()
      .then(
        () => done('ok'),
        (err: unknown) => {
          host.log.error({ err, task: name }, 'periodic task failed');
          done('error');
        },
      )
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(() => {
    if (!stopped) void run();
  }, intervalMs);
  timer.unref();
  return {
    runNow: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
