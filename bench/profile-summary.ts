// Where the time goes in a V8 .cpuprofile (from `npm run bench -- <scenario> --profile`):
// self time per function and per source file, heaviest first.
//   npx tsx bench/profile-summary.ts bench/results/profiles-<timestamp>/<file>.cpuprofile [top]
import { readFileSync } from 'node:fs';
import { fileOf, frameLabel, selfMsByNode, type CpuProfile } from './profile/cpu-profile.js';

export function selfTimes(profile: CpuProfile): { byFunction: Map<string, number>; byFile: Map<string, number>; totalMs: number } {
  const nodeById = new Map(profile.nodes.map((n) => [n.id, n]));
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let totalMs = 0;
  for (const [id, ms] of selfMsByNode(profile)) {
    const f = nodeById.get(id)!.callFrame;
    byFunction.set(frameLabel(f), (byFunction.get(frameLabel(f)) ?? 0) + ms);
    byFile.set(fileOf(f), (byFile.get(fileOf(f)) ?? 0) + ms);
    totalMs += ms;
  }
  return { byFunction, byFile, totalMs };
}

function top(map: Map<string, number>, total: number, n: number): string {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, ms]) => `${((100 * ms) / total).toFixed(1).padStart(5)}%  ${ms.toFixed(0).padStart(7)} ms  ${k}`)
    .join('\n');
}

if (process.argv[2]) {
  const { byFunction, byFile, totalMs } = selfTimes(JSON.parse(readFileSync(process.argv[2], 'utf8')) as CpuProfile);
  const n = Number(process.argv[3] ?? 25);
  console.log(`total ${totalMs.toFixed(0)} ms sampled\n\nself time by function:\n${top(byFunction, totalMs, n)}\n\nself time by file:\n${top(byFile, totalMs, n)}`);
}
