/** One run of bench/cpu-compare.ts: what a request (a message, for `send`) cost each part. */
export interface CpuRun {
  workload: string;
  build: string;
  round: number;
  /** CPU µs of the API process, of every Postgres process and of Redis, per request or message. */
  apiUs: number;
  postgresUs: number;
  redisUs: number;
  perSecond: number;
  failed: number;
}

const PARTS = [
  ['API', 'apiUs'],
  ['Postgres', 'postgresUs'],
  ['Redis', 'redisUs'],
] as const;

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * A Markdown table, a row per workload and part: each build's runs in round order, and the
 * change of the means from the base to this build.
 */
export function cpuTable(runs: CpuRun[], baseName: string, hereName: string): string {
  const lines = [`| workload | CPU µs per ${'request (send: per message)'} | ${baseName} | ${hereName} | change of the means |`, '| --- | --- | --- | --- | --- |'];
  for (const workload of [...new Set(runs.map((r) => r.workload))]) {
    const of = (build: string) => runs.filter((r) => r.workload === workload && r.build === build).sort((a, b) => a.round - b.round);
    const [base, here] = [of(baseName), of(hereName)];
    for (const [label, field] of PARTS) {
      const [b, h] = [base.map((r) => r[field]), here.map((r) => r[field])];
      const cells = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' / ');
      const change = b.length && h.length ? ((mean(h) - mean(b)) / mean(b)) * 100 : Number.NaN;
      lines.push(`| ${workload} | ${label} | ${cells(b)} | ${cells(h)} | ${Number.isFinite(change) ? `${change >= 0 ? '+' : ''}${change.toFixed(1)}%` : '–'} |`);
    }
    const failed = [...base, ...here].reduce((n, r) => n + r.failed, 0);
    if (failed > 0) lines.push(`| ${workload} | requests not answered 2xx | ${failed} in all: the figures above are not comparable | | |`);
  }
  return lines.join('\n');
}
