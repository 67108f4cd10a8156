import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs a command to its end in `cwd`, its output shown, throwing when it fails. */
export function run(cmd: string, args: string[], cwd: string): void {
  const r = spawnSync(cmd, args, { cwd, stdio: 'inherit', env: { ...process.env, HAFATRA_BENCH_FROM_SOURCE: '' } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd} (exit ${r.status})`);
}

/** A checkout of `sha` with its dependencies installed, reused when already there ($TMPDIR/hafatra-compare-<sha>). */
export function prepareBase(sha: string): string {
  const dir = join(tmpdir(), `hafatra-compare-${sha.slice(0, 12)}`);
  if (!existsSync(join(dir, '.git'))) execFileSync('git', ['worktree', 'add', '--detach', dir, sha], { stdio: 'inherit' });
  if (!existsSync(join(dir, 'node_modules'))) {
    const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
    if (ci.status !== 0) run('npm', ['install', '--no-save', '--no-audit', '--no-fund'], dir);
  }
  return dir;
}

/** The commit a revision names, in this repository. */
export function commitOf(rev: string): string {
  return execFileSync('git', ['rev-parse', '--verify', `${rev}^{commit}`], { encoding: 'utf8' }).trim();
}
