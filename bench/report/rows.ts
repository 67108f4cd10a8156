import { passes, type ScenarioResult } from '../lib/results.js';

/** The result table as rows of text, shared by the terminal and Markdown reports. */
export const HEADERS = ['scenario', 'figure', 'value', 'target', 'pass', 'ratio to ceiling'];

const num = (n: number) => (!Number.isFinite(n) ? 'n/a' : Math.abs(n) >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(1));

export function resultRows(results: ScenarioResult[]): string[][] {
  return results.flatMap((r) => {
    if (r.status !== 'ok') {
      const why = r.status === 'skipped' ? `not available yet: ${r.reason}` : `failed: ${r.reason}`;
      return [[r.scenario, why, '', '', r.status === 'failed' ? 'FAIL' : 'skip', '']];
    }
    return r.figures.map((f) => {
      const ok = passes(f);
      return [
        r.scenario,
        f.label,
        `${num(f.value)} ${f.unit}`,
        f.goal ? `${f.goal.op} ${num(f.goal.value)} ${f.unit}` : '',
        ok === undefined ? '' : ok ? 'pass' : 'FAIL',
        f.ratio === undefined ? '' : `${(f.ratio * 100).toFixed(1)}%`,
      ];
    });
  });
}
