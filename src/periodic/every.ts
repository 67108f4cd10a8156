import type { Logger } from '../logging/logger.js';

export interface Periodic {
  stop(): Promise<void>;
  /** Runs the task now (tests, and a nudge after a known event). */
  runNow(): Promise<void>;
}

/** Told of each run's outcome and how long it took (the background jobs' metrics). */
export type RunObserver = (outcome: 'ok' | 'error', seconds: number) => void;

/**
 * Runs a task every intervalMs, never two at once, logging (not throwing) its failures: a loop
 * that dies on one Redis hiccup would silently stop recovering messages.
 */
export function every(intervalMs: number, name: string, log: Logger, task: () => Promise<unknown>, observe?: RunObserver): Periodic {
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = () => {
    if (running) return running;
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    running = task()
      .then(
        () => observe?.('ok', seconds()),
        (err: unknown) => {
          log.error({ err, task: name }, 'periodic task failed');
          observe?.('error', seconds());
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
