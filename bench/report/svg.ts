import type { SweepPoint } from '../lib/results.js';

/**
 * A hand-written SVG: one row per panel (points sharing a unit), throughput against concurrency
 * on the left, p50 (dashed) and p99 (solid) latency on the right, one colour per series.
 */
const W = 420;
const H = 220;
const PAD = { left: 64, right: 16, top: 28, bottom: 36 };
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e'];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fmt = (n: number) => (n >= 10_000 ? `${Math.round(n / 1000)}k` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : n >= 10 ? String(Math.round(n)) : n.toFixed(1));

interface Line {
  colour: string;
  dashed: boolean;
  points: Array<[number, number]>;
}

/** A log scale when the series differ by more than 20× (Hafatra beside its hello-world ceiling), else linear from 0. */
function scale(values: number[]): { at(v: number): number; ticks: number[]; log: boolean } {
  const finite = values.filter((v) => Number.isFinite(v) && v > 0);
  const max = Math.max(1e-9, ...finite);
  const min = Math.min(max, ...finite);
  if (max / min <= 20) return { at: (v) => v / (max * 1.1), ticks: [0, 1, 2, 3, 4].map((i) => (max * i) / 4), log: false };
  const lo = Math.floor(Math.log10(min));
  const hi = Math.ceil(Math.log10(max));
  const ticks = Array.from({ length: hi - lo + 1 }, (_, i) => 10 ** (lo + i));
  return { at: (v) => (Math.log10(Math.max(v, 10 ** lo)) - lo) / (hi - lo), ticks, log: true };
}

function chart(x0: number, y0: number, title: string, xs: number[], lines: Line[]): string {
  const sc = scale(lines.flatMap((l) => l.points.map(([, y]) => y)));
  const px = (c: number) => x0 + PAD.left + (xs.length === 1 ? 0.5 : xs.indexOf(c) / (xs.length - 1)) * (W - PAD.left - PAD.right);
  const py = (v: number) => y0 + H - PAD.bottom - sc.at(v) * (H - PAD.top - PAD.bottom);
  const out = [`<text x="${x0 + PAD.left}" y="${y0 + 16}" font-weight="bold">${esc(title)}${sc.log ? ' (log scale)' : ''}</text>`];
  const base = py(sc.ticks[0]!);
  out.push(`<line x1="${x0 + PAD.left}" y1="${base}" x2="${x0 + W - PAD.right}" y2="${base}" stroke="#999"/>`);
  out.push(`<line x1="${x0 + PAD.left}" y1="${base}" x2="${x0 + PAD.left}" y2="${y0 + PAD.top}" stroke="#999"/>`);
  sc.ticks.forEach((v, i) => {
    out.push(`<text x="${x0 + PAD.left - 6}" y="${py(v) + 4}" text-anchor="end" fill="#555">${fmt(v)}</text>`);
    if (i > 0) out.push(`<line x1="${x0 + PAD.left}" y1="${py(v)}" x2="${x0 + W - PAD.right}" y2="${py(v)}" stroke="#eee"/>`);
  });
  for (const c of xs) out.push(`<text x="${px(c)}" y="${y0 + H - PAD.bottom + 16}" text-anchor="middle" fill="#555">${c}</text>`);
  out.push(`<text x="${x0 + PAD.left + (W - PAD.left - PAD.right) / 2}" y="${y0 + H - 4}" text-anchor="middle" fill="#555">connections</text>`);
  for (const l of lines) {
    const pts = l.points.filter(([, y]) => Number.isFinite(y));
    out.push(
      `<polyline fill="none" stroke="${l.colour}" stroke-width="2"${l.dashed ? ' stroke-dasharray="5,4"' : ''} points="${pts.map(([c, y]) => `${px(c).toFixed(1)},${py(y).toFixed(1)}`).join(' ')}"/>`,
    );
    for (const [c, y] of pts) out.push(`<circle cx="${px(c).toFixed(1)}" cy="${py(y).toFixed(1)}" r="3" fill="${l.colour}"/>`);
  }
  return out.join('\n');
}

export function sweepChart(points: SweepPoint[]): string {
  const panels = [...new Set(points.map((p) => p.panel))];
  const legendH = 24;
  const height = Math.max(1, panels.length) * (H + legendH) + 10;
  const body: string[] = [];
  panels.forEach((panel, row) => {
    const y0 = row * (H + legendH);
    const mine = points.filter((p) => p.panel === panel);
    const xs = [...new Set(mine.map((p) => p.connections))].sort((a, b) => a - b);
    const series = [...new Set(mine.map((p) => p.series))];
    const of = (s: string) => mine.filter((p) => p.series === s).sort((a, b) => a.connections - b.connections);
    const colour = (i: number) => COLOURS[i % COLOURS.length]!;
    body.push(
      chart(
        0,
        y0,
        `${panel}: throughput`,
        xs,
        series.map((s, i) => ({ colour: colour(i), dashed: false, points: of(s).map((p) => [p.connections, p.throughput]) })),
      ),
    );
    body.push(
      chart(
        W,
        y0,
        'latency ms (p50 dashed, p99 solid)',
        xs,
        series.flatMap((s, i) => [
          { colour: colour(i), dashed: true, points: of(s).map((p): [number, number] => [p.connections, p.p50]) },
          { colour: colour(i), dashed: false, points: of(s).map((p): [number, number] => [p.connections, p.p99]) },
        ]),
      ),
    );
    series.forEach((s, i) => {
      const x = PAD.left + i * 200;
      body.push(`<rect x="${x}" y="${y0 + H + 4}" width="12" height="12" fill="${colour(i)}"/><text x="${x + 16}" y="${y0 + H + 14}">${esc(s)}</text>`);
    });
  });
  if (panels.length === 0) body.push('<text x="20" y="30">no concurrency sweep in this run</text>');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * W}" height="${height}" viewBox="0 0 ${2 * W} ${height}" font-family="sans-serif" font-size="11">
<rect width="100%" height="100%" fill="white"/>
${body.join('\n')}
</svg>
`;
}
