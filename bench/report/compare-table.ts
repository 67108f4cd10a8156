/** The figures of one bench run (its result JSON), labelled `base-1`, `current-2`, … */
export interface Run {
  label: string;
  figures: { key: string; label: string; value: number; unit: string; ratio?: number }[];
}

/** One build's runs, under the name its column is headed by (a revision, or "this build"). */
export interface Build {
  name: string;
  runs: Run[];
}

const fmt = (n: number | undefined, asRatio: boolean) =>
  n === undefined || !Number.isFinite(n) ? '–' : asRatio ? `${(n * 100).toFixed(1)}%` : n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toPrecision(3);
const mean = (xs: number[]) => (xs.length === 0 ? undefined : xs.reduce((a, b) => a + b, 0) / xs.length);
const change = (from: number | undefined, to: number | undefined) =>
  from === undefined || to === undefined || from === 0 ? '–' : `${to >= from ? '+' : ''}${(((to - from) / from) * 100).toFixed(1)}%`;

/**
 * A Markdown table of every figure of both builds: each run's ratio to its ceiling (or value when
 * the figure has no ceiling), then the change of the means, this build against the base.
 */
export function compareTable(rev: string, base: Run[], current: Run[]): string {
  return buildsTable([
    { name: rev, runs: base },
    { name: 'this build', runs: current },
  ]);
}

/**
 * The same for any number of builds (a bisect of several revisions in one alternating run): a
 * column per build, then the change of each build's mean against the build before it, so the
 * step that cost a figure shows where it happened.
 */
export function buildsTable(builds: Build[]): string {
  const keys = [...new Set(builds.flatMap((b) => b.runs.flatMap((r) => r.figures.map((f) => f.key))))];
  const steps = builds.slice(1).map((b, i) => `${builds[i]!.name} → ${b.name}`);
  const rows = keys.map((key) => {
    const figures = builds.map((b) => b.runs.map((r) => r.figures.find((f) => f.key === key)));
    const all = figures.flat();
    const any = all.find((f) => f !== undefined)!;
    const asRatio = all.some((f) => f?.ratio !== undefined);
    const metric = (f: Run['figures'][number] | undefined) => (f === undefined ? undefined : asRatio ? f.ratio : f.value);
    const means = figures.map((fs) => mean(fs.map(metric).filter((x): x is number => x !== undefined)));
    const cells = figures.map((fs) => fs.map((f) => fmt(metric(f), asRatio)).join(' / '));
    const changes = means.slice(1).map((m, i) => change(means[i], m));
    return `| ${any.label} | ${asRatio ? 'ratio to ceiling' : any.unit} | ${cells.join(' | ')} | ${changes.join(' | ')} |`;
  });
  const header = builds.map((b) => `${b.name} (${b.runs.map((r) => r.label).join(', ')})`);
  const changeHeads = builds.length === 2 ? ['change of the means'] : steps.map((s) => `change ${s}`);
  return [`| figure | compared as | ${header.join(' | ')} | ${changeHeads.join(' | ')} |`, `| --- | --- |${' --- |'.repeat(builds.length + changeHeads.length)}`, ...rows].join('\n');
}
