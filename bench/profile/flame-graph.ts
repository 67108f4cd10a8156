// A flame graph of a V8 .cpuprofile as one self-contained SVG, so `--profile` answers "where does
// the time go" without Chrome DevTools: callers at the bottom, callees stacked on them, each
// frame as wide as the time spent in it and below it; heaviest callee first (left).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileOf, frameLabel, selfMsByNode, type CpuProfile, type ProfileNode } from './cpu-profile.js';

const WIDTH = 1200;
const ROW = 17;
const TOP = 56;
/** Width of one character of 11px monospace (0.6 em), rounded up so labels stay inside their frame. */
const CHAR_PX = 6.7;
/** Frames narrower than this are left out (and their callees with them): they cannot be read. */
const MIN_PX = 0.5;
/** Samples with nothing running: left out, so the width is the busy time. */
const IDLE = '(idle)';

export interface Frame {
  node: ProfileNode;
  totalMs: number;
  selfMs: number;
  children: Frame[];
}

/** The call tree with each node's time below it; idle left out; callees heaviest first. */
export function callTree(profile: CpuProfile): { root: Frame; idleMs: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = selfMsByNode(profile);
  const calledIds = new Set(profile.nodes.flatMap((n) => n.children ?? []));
  const rootNode = profile.nodes.find((n) => !calledIds.has(n.id));
  if (!rootNode) throw new Error('cpuprofile without a root node');
  let idleMs = 0;
  const build = (node: ProfileNode): Frame => {
    const children: Frame[] = [];
    for (const id of node.children ?? []) {
      const child = byId.get(id)!;
      const frame = build(child);
      if (child.callFrame.functionName === IDLE) idleMs += frame.totalMs;
      else children.push(frame);
    }
    children.sort((a, b) => b.totalMs - a.totalMs);
    const selfMs = self.get(node.id) ?? 0;
    return { node, selfMs, children, totalMs: selfMs + children.reduce((sum, c) => sum + c.totalMs, 0) };
  };
  return { root: build(rootNode), idleMs };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Hue by where the code lives: Hafatra warm, dependencies blue, Node's own green, native/VM red. */
function colour(node: ProfileNode): string {
  const file = fileOf(node.callFrame);
  let h = 0;
  for (const c of node.callFrame.functionName) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  const light = 55 + (h % 20);
  if (file.startsWith('src/') || file.startsWith('dist/') || file.startsWith('bench/')) return `hsl(${25 + (h % 20)},85%,${light}%)`;
  if (file.startsWith('node_modules/')) return `hsl(${200 + (h % 20)},60%,${light + 5}%)`;
  if (file.startsWith('node:')) return `hsl(${95 + (h % 25)},45%,${light}%)`;
  return `hsl(${h % 10},70%,${light}%)`;
}

const LEGEND: Array<[string, string]> = [
  ['Hafatra (src/)', 'hsl(35,85%,62%)'],
  ['dependencies (node_modules/)', 'hsl(210,60%,67%)'],
  ['Node.js internals (node:)', 'hsl(105,45%,62%)'],
  ['native, GC, VM', 'hsl(5,70%,62%)'],
];

export function flameGraphSvg(profile: CpuProfile, title: string): string {
  const { root, idleMs } = callTree(profile);
  const busyMs = root.totalMs;
  const pxPerMs = busyMs > 0 ? WIDTH / busyMs : 0;
  const placed: Array<{ frame: Frame; x: number; depth: number; w: number }> = [];
  const place = (frame: Frame, x: number, depth: number) => {
    const w = frame.totalMs * pxPerMs;
    if (w < MIN_PX) return;
    placed.push({ frame, x, depth, w });
    let cx = x;
    for (const c of frame.children) {
      place(c, cx, depth + 1);
      cx += c.totalMs * pxPerMs;
    }
  };
  // The root is V8's "(root)": its callees are the bottom row.
  let x = 0;
  for (const c of root.children) {
    place(c, x, 0);
    x += c.totalMs * pxPerMs;
  }
  const maxDepth = placed.reduce((m, p) => Math.max(m, p.depth), 0);
  const height = TOP + (maxDepth + 1) * ROW + 8;
  const body = placed.map((p) => frameSvg(p.frame, p.x, TOP + (maxDepth - p.depth) * ROW, p.w, busyMs));
  const legend = LEGEND.map(([name, fill], i) => `<rect x="${10 + i * 240}" y="34" width="12" height="12" fill="${fill}"/><text x="${28 + i * 240}" y="44">${esc(name)}</text>`);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH + 20}" height="${height}" font-family="monospace" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="10" y="20" font-size="14" font-weight="bold">${esc(title)}: ${Math.round(busyMs)} ms busy, ${Math.round(idleMs)} ms idle left out</text>`,
    ...legend,
    `<g transform="translate(10,0)">`,
    ...body,
    `</g></svg>`,
  ].join('\n');
}

function frameSvg(frame: Frame, x: number, y: number, w: number, busyMs: number): string {
  const label = frameLabel(frame.node.callFrame);
  const share = busyMs > 0 ? (100 * frame.totalMs) / busyMs : 0;
  const tip = `${label}: ${frame.totalMs.toFixed(1)} ms (${share.toFixed(1)}%), self ${frame.selfMs.toFixed(1)} ms`;
  const chars = Math.floor((w - 6) / CHAR_PX);
  const text = chars >= 3 ? (label.length <= chars ? label : `${label.slice(0, chars - 2)}..`) : '';
  return (
    `<g transform="translate(0,${y})"><title>${esc(tip)}</title>` +
    `<rect x="${x.toFixed(2)}" width="${w.toFixed(2)}" height="${ROW - 1}" fill="${colour(frame.node)}" rx="1"/>` +
    (text ? `<text x="${(x + 3).toFixed(2)}" y="${ROW - 5}">${esc(text)}</text>` : '') +
    '</g>'
  );
}

/** Writes `<name>.flame.svg` beside every `<name>.cpuprofile` in `dir`; returns the SVGs' paths. */
export async function writeFlameGraphs(dir: string): Promise<string[]> {
  const written: string[] = [];
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.cpuprofile')).sort()) {
    const profile = JSON.parse(await readFile(join(dir, file), 'utf8')) as CpuProfile;
    const out = join(dir, file.replace(/\.cpuprofile$/, '.flame.svg'));
    await writeFile(out, flameGraphSvg(profile, file));
    written.push(out);
  }
  return written;
}
