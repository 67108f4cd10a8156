import type { LoadResult } from './load.js';
import type { SweepPoint } from './results.js';

/** The run with the highest throughput: the figure a sweep reports. */
export function best(runs: LoadResult[]): LoadResult {
  return runs.reduce((a, b) => (b.okPerSecond > a.okPerSecond ? b : a));
}

/** Sweep runs as chart points; `perRequest` turns requests into the panel's unit (e.g. 500 messages). */
export function toPoints(panel: string, series: string, runs: LoadResult[], perRequest = 1): SweepPoint[] {
  return runs.map((r) => ({ panel, series, connections: r.connections, throughput: r.okPerSecond * perRequest, p50: r.p50, p99: r.p99 }));
}
