// `npm run bench:compare -- <git-rev> [--rounds N] [bench arguments …]`: builds <git-rev> in a
// worktree of its own, then runs the bench on it and on this checkout alternately (base, this;
// this, base; …), and prints each figure of both side by side: its ratio to the ceiling measured
// in the same run where it has one (the machine's drift between runs cancels), else its value.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildsTable, type Build, type Run } from './report/compare-table.js';
import { commitOf, prepareBase, run } from './lib/base-build.js';

const USAGE = `npm run bench:compare -- <git-rev>[,<git-rev>…] [--rounds 2] [scenario …] [bench options]  (the revisions first)

Builds <git-rev> in a temporary worktree (kept in ${tmpdir()}/hafatra-compare-<sha> for the next
comparison), then runs \`bench/run.ts\` with the same scenarios and options on that build and on
this checkout, alternating, --rounds times each (default 2). Prints every figure of both: the
ratio to its ceiling of the same run when it has one, else its value, and the change.
Several revisions, oldest first and separated by commas, bisect a range in one run: every build
runs once a round, the order turned around each round, and each column's change is against the
column before it.`;

/** One bench run in `dir`; the figures of its result JSON. */
function benchOnce(dir: string, label: string, benchArgs: string[], out: string): Run {
  const runOut = join(out, label);
  mkdirSync(runOut, { recursive: true });
  // The build of that checkout (npm run bench builds first too): its API runs from its dist/.
  run('npm', ['run', 'build', '--silent'], dir);
  run('npx', ['tsx', 'bench/run.ts', ...benchArgs, '--out', runOut], dir);
  const file = readdirSync(runOut).find((n) => n.endsWith('.json'));
  if (!file) throw new Error(`no result JSON in ${runOut}`);
  const json = JSON.parse(readFileSync(join(runOut, file), 'utf8')) as { results: { figures: { key: string; label: string; value: number; unit: string; ratio?: number }[] }[] };
  return { label, figures: json.results.flatMap((r) => r.figures) };
}

function main(argv: string[]): number {
  const [rev, ...rest] = argv;
  if (!rev || rev.startsWith('-')) {
    console.log(USAGE);
    return rev === '--help' || rev === '-h' ? 0 : 2;
  }
  // Everything after the revision goes to the bench as written, but --rounds.
  const at = rest.findIndex((a) => a === '--rounds' || a.startsWith('--rounds='));
  const roundsArg = at < 0 ? '2' : rest[at]!.includes('=') ? rest[at]!.split('=')[1]! : rest[at + 1];
  const benchArgs = at < 0 ? rest : rest.filter((_, i) => i !== at && !(i === at + 1 && !rest[at]!.includes('=')));
  const rounds = Number(roundsArg);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds: a whole number of at least 1');
  const revs = rev.split(',').filter((r) => r !== '');
  const here = resolve('.');
  const builds = revs.map((r) => {
    return { name: r, dir: prepareBase(commitOf(r)), runs: [] as Build['runs'] };
  });
  builds.push({ name: 'this build', dir: here, runs: [] });
  const out = join('bench', 'results', `compare-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? builds : [...builds].reverse();
    for (const b of order) b.runs.push(benchOnce(b.dir, `${b === builds.at(-1) ? 'current' : builds.length === 2 ? 'base' : b.name}-${round}`, benchArgs, resolve(out)));
  }
  const table = buildsTable(builds);
  console.log(`\n${table}`);
  writeFileSync(join(out, 'compare.md'), `${table}\n`);
  console.log(`\n${join(out, 'compare.md')}`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
