/**
 * The layers of `src/`, checked: every import between files (type imports included) mapped to
 * the top-level folders of `src/` (a file directly in `src/` belongs to the group `src/*.ts`),
 * then held against docs/layers.json. test/architecture/layers.test.ts runs it under `npm test`;
 * `npm run layers:diagram` draws the same graph into docs/architecture.md.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import ts from 'typescript';

export const ROOT = join(import.meta.dirname, '..', '..');
export const ROOT_GROUP = 'src/*.ts';

/** docs/layers.json: the layers top first; a folder may import its own layer and those below. */
export interface LayerRules {
  layers: { name: string; why: string; folders: string[] }[];
  /** Imports that run up a layer on purpose: `from` and `to` are paths from the repository root. */
  exceptions: { from: string; to: string; reason: string }[];
  limits: { exceptions: number; largestGroup: number; mutualPairs: number };
}

/** One import between two files of `src/`, paths from the repository root. */
export interface FileImport {
  from: string;
  to: string;
}

export function readRules(root = ROOT): LayerRules {
  return JSON.parse(readFileSync(join(root, 'docs', 'layers.json'), 'utf8')) as LayerRules;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every import of a file under `src/` that names another file under `src/` (`import`, `export … from`, `import()`). */
export function readImports(root = ROOT): FileImport[] {
  const files = sourceFiles(join(root, 'src'));
  const known = new Set(files.map((file) => relative(root, file).split('\\').join('/')));
  return files.flatMap((file) => {
    const from = relative(root, file).split('\\').join('/');
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    return importedFiles
      .map(({ fileName }) => fileName)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => resolve(from, spec, known))
      .filter((to): to is string => to !== undefined)
      .map((to) => ({ from, to }));
  });
}

function resolve(from: string, spec: string, known: Set<string>): string | undefined {
  const base = posix.join(posix.dirname(from), spec).replace(/\.js$/, '');
  return [`${base}.ts`, `${base}/index.ts`].find((candidate) => known.has(candidate));
}

/** `src/messages/sql/insert.ts` → `messages`; `src/index.ts` → `src/*.ts`. */
export function groupOf(path: string): string {
  const parts = path.split('/');
  return parts.length > 2 ? parts[1]! : ROOT_GROUP;
}

/** The folder graph: for each folder, the folders it imports and through which file imports. */
export function folderGraph(imports: FileImport[]): Map<string, Map<string, FileImport[]>> {
  const graph = new Map<string, Map<string, FileImport[]>>();
  for (const edge of imports) {
    const from = groupOf(edge.from);
    const to = groupOf(edge.to);
    const targets = graph.get(from) ?? new Map<string, FileImport[]>();
    graph.set(from, targets);
    if (from === to) continue;
    targets.set(to, [...(targets.get(to) ?? []), edge]);
  }
  for (const edge of imports) if (!graph.has(groupOf(edge.to))) graph.set(groupOf(edge.to), new Map());
  return graph;
}

/** Groups of folders that all reach one another (Tarjan's strongly connected components), largest first. */
export function reachGroups(graph: Map<string, Map<string, unknown>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    groups.push(group.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return groups.sort((a, b) => b.length - a.length || a[0]!.localeCompare(b[0]!));
}

/** Pairs of folders that import each other, each as `[a, b]` with a before b. */
export function mutualPairs(graph: Map<string, Map<string, unknown>>): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [from, targets] of graph) {
    for (const to of targets.keys()) if (from < to && graph.get(to)?.has(from)) pairs.push([from, to]);
  }
  return pairs.sort((a, b) => a.join().localeCompare(b.join()));
}

/** Layer rank of each folder: 0 is the top. */
export function ranks(rules: LayerRules): Map<string, number> {
  return new Map(rules.layers.flatMap((layer, rank) => layer.folders.map((folder) => [folder, rank] as const)));
}

/** File imports whose target folder sits in a higher layer than the importing folder's. */
export function upwardImports(imports: FileImport[], rules: LayerRules): FileImport[] {
  const rank = ranks(rules);
  return imports.filter(({ from, to }) => {
    const fromRank = rank.get(groupOf(from));
    const toRank = rank.get(groupOf(to));
    return fromRank !== undefined && toRank !== undefined && toRank < fromRank;
  });
}

export interface Measure {
  upward: number;
  upwardFolderEdges: number;
  mutualPairs: number;
  largestGroup: number;
}

export function measure(imports: FileImport[], rules: LayerRules): Measure {
  const graph = folderGraph(imports);
  const upward = upwardImports(imports, rules);
  return {
    upward: upward.length,
    upwardFolderEdges: new Set(upward.map(({ from, to }) => `${groupOf(from)}>${groupOf(to)}`)).size,
    mutualPairs: mutualPairs(graph).length,
    largestGroup: reachGroups(graph)[0]?.length ?? 0,
  };
}

/** Every way the imports break the rules, one readable line each; none when they keep them. */
export function violations(imports: FileImport[], rules: LayerRules): string[] {
  const problems: string[] = [];
  const rank = ranks(rules);
  const layerOf = (folder: string) => rules.layers[rank.get(folder)!]!.name;
  const folders = new Set(imports.flatMap(({ from, to }) => [groupOf(from), groupOf(to)]));
  for (const folder of [...folders].sort()) {
    if (!rank.has(folder)) problems.push(`src folder "${folder}" is in no layer of docs/layers.json: add it to the layer it belongs to`);
  }
  for (const [folder, count] of countBy(rules.layers.flatMap((layer) => layer.folders))) {
    if (count > 1) problems.push(`"${folder}" is listed in ${count} layers of docs/layers.json`);
  }
  if (rules.exceptions.length > rules.limits.exceptions) {
    problems.push(`${rules.exceptions.length} exceptions are listed, at most ${rules.limits.exceptions} are allowed: move code instead`);
  }
  const excepted = new Set(rules.exceptions.map(({ from, to }) => `${from} -> ${to}`));
  for (const exception of rules.exceptions) {
    if (!exception.reason.trim()) problems.push(`the exception ${exception.from} -> ${exception.to} gives no reason`);
  }
  const upward = upwardImports(imports, rules);
  const used = new Set(upward.map(({ from, to }) => `${from} -> ${to}`));
  for (const { from, to } of upward) {
    if (excepted.has(`${from} -> ${to}`)) continue;
    problems.push(
      `${from} imports ${to}: "${groupOf(from)}" (layer ${layerOf(groupOf(from))}) may not import "${groupOf(to)}" (layer ${layerOf(groupOf(to))}, above it); move the code down, or list the import in docs/layers.json's exceptions with its reason`,
    );
  }
  for (const key of excepted) if (!used.has(key)) problems.push(`the exception ${key} in docs/layers.json no longer runs up a layer: remove it`);
  const graph = folderGraph(imports);
  const largest = reachGroups(graph)[0] ?? [];
  if (largest.length > rules.limits.largestGroup) {
    problems.push(`${largest.length} folders all reach one another (at most ${rules.limits.largestGroup}): ${largest.join(', ')}`);
  }
  const pairs = mutualPairs(graph);
  if (pairs.length > rules.limits.mutualPairs) {
    const detail = pairs.map(([a, b]) => `${a}<->${b} (${example(graph, a, b)}; ${example(graph, b, a)})`);
    problems.push(`${pairs.length} pairs of folders import each other (at most ${rules.limits.mutualPairs}):\n  ${detail.join('\n  ')}`);
  }
  return problems;
}

function example(graph: Map<string, Map<string, FileImport[]>>, from: string, to: string): string {
  const edges = graph.get(from)!.get(to)!;
  return `${edges[0]!.from} imports ${edges[0]!.to}${edges.length > 1 ? ` and ${edges.length - 1} more` : ''}`;
}

function countBy(values: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}
