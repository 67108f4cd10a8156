/** The figures of one bench run (its result JSON), labelled `base-1`, `current-2`, … */
export interface Run {
  label: string;
  figures: { key: string; label: string; value: number; unit: string; ratio?: number }[];
}

const fmt = (n: number | undefined, asRatio: boolean) =>
  n === undefined || !Number.isFinite(n) ? '–' : asRatio ? `${(n * 100).toFixed(1)}%` : n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toPrecision(3);
const mean = (xs: number[]) => (xs.length === 0 ? undefined : xs.reduce((a, b) => a + b, 0) / xs.length);

/**
 * A Markdown table of every figure of both builds: each run's ratio to its ceiling (or value when
 * the figure has no ceiling), then the change of the means, this build against the base.
 */
export function compareTable(rev: string, base: Run[], current: Run[]): string {
  const keys = [...new Set([...base, ...current].flatMap((r) => r.figures.map((f) => f.key)))];
  const rows = keys.map((key) => {
    const of = (runs: Run[]) => runs.map((r) => r.figures.find((f) => f.key === key));
    const b = of(base);
    const c = of(current);
    const any = [...b, ...c].find((f) => f !== undefined)!;
    const asRatio = [...b, ...c].some((f) => f?.ratio !== undefined);
    const metric = (f: Run['figures'][number] | undefined) => (f === undefined ? undefined : asRatio ? f.ratio : f.value);
    const bm = mean(b.map(metric).filter((x): x is number => x !== undefined));
    const cm = mean(c.map(metric).filter((x): x is number => x !== undefined));
    const change = bm === undefined || cm === undefined || bm === 0 ? '–' : `${cm >= bm ? '+' : ''}${(((cm - bm) / bm) * 100).toFixed(1)}%`;
    const cells = (fs: (Run['figures'][number] | undefined)[]) => fs.map((f) => fmt(metric(f), asRatio)).join(' / ');
    return `| ${any.label} | ${asRatio ? 'ratio to ceiling' : any.unit} | ${cells(b)} | ${cells(c)} | ${change} |`;
  });
  return [
    `| figure | compared as | ${rev} (${base.map((r) => r.label).join(', ')}) | this build (${current.map((r) => r.label).join(', ')}) | change of the means |`,
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}
