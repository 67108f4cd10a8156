/**
 * The layers diagram of docs/architecture.md, drawn from docs/layers.json and today's imports:
 * each layer with its folders, an arrow from a layer to each layer it imports that it does not
 * already reach through another (the transitive reduction), labelled with the count of file
 * imports, and any listed exception as a dotted arrow. `npm run layers:diagram` writes it between
 * the markers; test/architecture/layers.test.ts fails when the doc differs from it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FileImport, type LayerRules, groupOf, ranks, ROOT } from './layers.js';

export const BEGIN = '<!-- layers:begin (written by `npm run layers:diagram` from docs/layers.json) -->';
export const END = '<!-- layers:end -->';
export const ARCHITECTURE_DOC = join(ROOT, 'docs', 'architecture.md');

const nodeId = (folder: string) => (folder === 'src/*.ts' ? 'src_root' : `f_${folder.replace(/[^a-z0-9]/gi, '_')}`);

export function layersDiagram(imports: FileImport[], rules: LayerRules): string {
  const rank = ranks(rules);
  const counts = new Map<string, number>();
  for (const { from, to } of imports) {
    const a = rank.get(groupOf(from));
    const b = rank.get(groupOf(to));
    if (a === undefined || b === undefined || a >= b) continue;
    counts.set(`${a}>${b}`, (counts.get(`${a}>${b}`) ?? 0) + 1);
  }
  const below = (a: number) => [...counts.keys()].filter((k) => k.startsWith(`${a}>`)).map((k) => Number(k.split('>')[1]));
  const reaches = (from: number, to: number, skip: number): boolean => below(from).some((n) => n !== skip && (n === to || reaches(n, to, -1)));
  const lines = ['```mermaid', 'flowchart TB'];
  rules.layers.forEach((layer, i) => {
    lines.push(`  subgraph L${i}["${layer.name}"]`);
    lines.push(`    direction LR`);
    for (const folder of layer.folders) lines.push(`    ${nodeId(folder)}["${folder}"]`);
    lines.push('  end');
  });
  for (const key of [...counts.keys()].sort((x, y) => x.localeCompare(y, 'en', { numeric: true }))) {
    const [a, b] = key.split('>').map(Number) as [number, number];
    if (!reaches(a, b, b)) lines.push(`  L${a} -->|${counts.get(key)}| L${b}`);
  }
  for (const { from, to } of rules.exceptions) lines.push(`  ${nodeId(groupOf(from))} -.->|exception| ${nodeId(groupOf(to))}`);
  lines.push('```', '', '| Layer | Folders of `src/` | What it holds |', '| --- | --- | --- |');
  for (const layer of rules.layers) lines.push(`| ${layer.name} | ${layer.folders.map((f) => `\`${f}\``).join(', ')} | ${layer.why} |`);
  return [BEGIN, ...lines, END].join('\n');
}

/** The doc with its diagram replaced by `diagram`; throws when the markers are missing. */
export function withDiagram(doc: string, diagram: string): string {
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/architecture.md has no ${BEGIN} … ${END} markers`);
  return doc.slice(0, start) + diagram + doc.slice(end + END.length);
}

export function writeDiagram(imports: FileImport[], rules: LayerRules): void {
  const doc = readFileSync(ARCHITECTURE_DOC, 'utf8');
  writeFileSync(ARCHITECTURE_DOC, withDiagram(doc, layersDiagram(imports, rules)));
}
