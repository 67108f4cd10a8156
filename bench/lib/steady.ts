import type { LoadResult } from './load.js';
import { timed } from './progress.js';
import { nowMs, sleep, summarize } from './stats.js';

export interface SteadyOptions {
  url: string;
  method: 'GET' | 'POST';
  /** Requests per second, sent on a fixed schedule. */
  rate: number;
  seconds: number;
  body?: string;
  /** Headers of each request (e.g. a rotating key). */
  headers: () => Record<string, string>;
  label: string;
  /** Sent on the same schedule first and not counted: connections opened, the previous run's backlog cleared. */
  warmupSeconds?: number;
}

/**
 * An open-loop load: one request every 1000/rate ms, on schedule whatever the previous answers
 * did, so a slow answer shows in the latency instead of slowing the load (autocannon's fixed-rate
 * mode sends each second's requests in a burst). Latency runs from the scheduled send to the end
 * of the answer.
 */
export async function steadyLoad(o: SteadyOptions): Promise<LoadResult> {
  if (o.warmupSeconds) await steadyLoad({ ...o, seconds: o.warmupSeconds, warmupSeconds: 0, label: `${o.label} (warm-up)` });
  const run = async (): Promise<LoadResult> => {
    const intervalMs = 1000 / o.rate;
    const started = nowMs();
    const latencies: number[] = [];
    const statusCodes: Record<string, number> = {};
    let errors = 0;
    let inFlight = 0;
    let maxInFlight = 0;
    const pending: Promise<void>[] = [];
    for (let i = 0; nowMs() - started < o.seconds * 1000; i++) {
      const due = started + i * intervalMs;
      if (due > nowMs()) await sleep(due - nowMs());
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      pending.push(
        fetch(o.url, { method: o.method, headers: o.headers(), body: o.body })
          .then(async (res) => {
            await res.arrayBuffer();
            statusCodes[res.status] = (statusCodes[res.status] ?? 0) + 1;
            latencies.push(nowMs() - due);
          })
          .catch(() => {
            errors++;
          })
          .finally(() => {
            inFlight--;
          }),
      );
    }
    await Promise.all(pending);
    const seconds = (nowMs() - started) / 1000;
    const ok = Object.entries(statusCodes).reduce((n, [code, count]) => n + (code.startsWith('2') ? count : 0), 0);
    const { p50, p99 } = summarize(latencies);
    return {
      connections: maxInFlight,
      seconds,
      okPerSecond: ok / seconds,
      ok,
      non2xx: latencies.length - ok,
      errors,
      p50: Math.round(p50),
      p99: Math.round(p99),
      statusCodes,
    };
  };
  return timed(o.label, o.seconds, run());
}
