/** What every scenario hands back; the reports (table, JSON, Markdown, SVG) read only this. */
export interface Goal {
  op: '>=' | '<=';
  value: number;
}

export interface Figure {
  /** Stable key, e.g. "bulk-send.messagesPerSecond". */
  key: string;
  label: string;
  value: number;
  unit: string;
  goal?: Goal;
  /** Key of the ceiling figure this one is compared to (ratio = value / ceiling). */
  ceilingKey?: string;
  ratio?: number;
}

/** One point of a concurrency sweep, for the chart. */
export interface SweepPoint {
  /** Chart panel: points of one panel share a unit. */
  panel: string;
  series: string;
  connections: number;
  /** Per second, in the series' own unit (messages or requests). */
  throughput: number;
  p50: number;
  p99: number;
}

export interface ScenarioResult {
  scenario: string;
  status: 'ok' | 'skipped' | 'failed';
  /** Why skipped or failed. */
  reason?: string;
  method: string;
  figures: Figure[];
  sweep: SweepPoint[];
  details: Record<string, unknown>;
}

export class NotAvailable extends Error {
  override name = 'NotAvailable';
}

export function passes(f: Figure): boolean | undefined {
  if (!f.goal || !Number.isFinite(f.value)) return undefined;
  return f.goal.op === '>=' ? f.value >= f.goal.value : f.value <= f.goal.value;
}

/** Fills each figure's ratio from the ceilings measured in the same run. */
export function applyCeilings(results: ScenarioResult[]): void {
  const byKey = new Map(results.flatMap((r) => r.figures).map((f) => [f.key, f.value]));
  for (const f of results.flatMap((r) => r.figures)) {
    const ceiling = f.ceilingKey ? byKey.get(f.ceilingKey) : undefined;
    if (ceiling !== undefined && ceiling > 0 && Number.isFinite(f.value)) f.ratio = f.value / ceiling;
  }
}
