// `npm run bench`: every scenario against a local server it starts, or the ones named against
// --url/--key. Prints a table, writes bench/results/<timestamp>.json, .md and .svg.
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseBenchArgs, USAGE, type BenchArgs } from './lib/args.js';
import { note } from './lib/progress.js';
import { applyCeilings, NotAvailable, type ScenarioResult } from './lib/results.js';
import { writeFlameGraphs } from './profile/flame-graph.js';
import { runSettings, type RunSettings } from './lib/settings.js';
import type { RunInfo } from './report/markdown.js';
import { terminalTable } from './report/table.js';
import { writeResults } from './report/write.js';
import { scenarios } from './scenarios/index.js';
import type { Scenario } from './scenarios/scenario.js';
import { startLocalTarget } from './target/local.js';
import { pinSelf } from './target/processes.js';
import { remoteTarget } from './target/remote.js';
import type { Target } from './target/target.js';

function pick(names: string[]): Scenario[] {
  if (names.length === 0) return scenarios;
  return names.map((n) => {
    const s = scenarios.find((x) => x.name === n);
    if (!s) throw new Error(`unknown scenario ${n}; one of ${scenarios.map((x) => x.name).join(', ')}`);
    return s;
  });
}

async function runOne(s: Scenario, target: Target, settings: RunSettings): Promise<ScenarioResult> {
  note(`▶ ${s.name}`);
  const base = { scenario: s.name, method: s.method, figures: [], sweep: [], details: {} };
  try {
    const out = await s.run({ target, settings });
    return { ...base, status: 'ok', figures: out.figures, sweep: out.sweep ?? [], details: out.details ?? {} };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    note(`  ${s.name}: ${err instanceof NotAvailable ? 'not available yet' : 'failed'}: ${reason.split('\n')[0]}`);
    return { ...base, status: err instanceof NotAvailable ? 'skipped' : 'failed', reason };
  }
}

async function openTarget(args: BenchArgs, settings: RunSettings, chosen: Scenario[], profileDir: string | undefined, statementsFile: string | undefined): Promise<Target> {
  if (args.url) return remoteTarget({ url: args.url, keys: args.keys, deviceTokensFile: args.deviceTokens });
  return startLocalTarget({
    apiCpu: settings.apiCpu,
    cpuProfileDir: profileDir,
    shortWithdrawalTimers: chosen.some((s) => s.name === 'fleet-chaos'),
    ...(args.stored ? { stored: args.stored } : {}),
    ...(statementsFile ? { statementsFile } : {}),
  });
}

export async function main(argv: string[]): Promise<number> {
  const args = parseBenchArgs(argv);
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const chosen = pick(args.scenarios);
  const settings = runSettings(args.quick, {
    ...(args.seconds ? { seconds: args.seconds } : {}),
    ...(args.sweep ? { sweep: args.sweep } : {}),
    ...(args.sockets ? { sockets: args.sockets } : {}),
  });
  const startedAt = new Date().toISOString();
  const profileDir = args.profile && !args.url ? join(args.out, `profiles-${startedAt.replace(/[:.]/g, '-')}`) : undefined;
  const statementsFile = args.statements && !args.url ? join(args.out, `statements-${startedAt.replace(/[:.]/g, '-')}.md`) : undefined;
  const target = await openTarget(args, settings, chosen, profileDir, statementsFile);
  const pinnedClient = target.kind === 'local' && pinSelf(settings.clientCpu);
  const results: ScenarioResult[] = [];
  try {
    for (const s of chosen) results.push(await runOne(s, target, settings));
  } finally {
    await target.close();
  }
  applyCeilings(results);
  const info: RunInfo = {
    startedAt,
    target: target.kind === 'local' ? `local server (${target.url})` : target.url,
    quick: settings.quick,
    machine: `${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}`,
    pinning: pinnedClient
      ? `API process and hello-world ceiling pinned to CPU ${settings.apiCpu}; bench client, phone fleet and receiver to CPU ${settings.clientCpu}; Postgres, Redis and the worker unpinned.`
      : 'No CPU pinning (taskset missing, one CPU, or remote target).',
  };
  const files = await writeResults(args.out, info, results);
  console.log(`\n${terminalTable(results)}\n`);
  console.log(`results: ${files.json}\n         ${files.md}\n         ${files.svg}`);
  if (statementsFile) console.log(`Postgres statements and Redis commands by time: ${statementsFile}`);
  if (profileDir) {
    console.log(`API and worker CPU profiles: ${profileDir}/ (open in Chrome DevTools → Performance, or speedscope)`);
    // The run's results are written by now: a profile that cannot be drawn costs only its graph.
    await writeFlameGraphs(profileDir).then(
      (flames) => console.log(`flame graphs: ${flames.join('\n              ')}`),
      (err: unknown) => console.error(`flame graphs not drawn: ${err instanceof Error ? err.message : String(err)}`),
    );
  }
  return results.some((r) => r.status === 'failed') ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  console.error(USAGE);
  return 2;
});
