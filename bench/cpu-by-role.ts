// `npx tsx bench/cpu-by-role.ts --root PID -- <command …>`: CPU seconds each part of a deployment
// spent while <command> ran (a bench against bench/loopback-cluster.ts, whose PID is --root).
// Read from /proc (user + system time) for every process under --root, grouped by role: api,
// worker, nginx, postgres, and each redis-server by port. CPU time per message holds steadier
// than throughput on a shared machine: it is what docs/capacity.md sizes nodes by.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ options: { root: { type: 'string' } }, allowPositionals: true });
const root = Number(values.root);
if (!Number.isInteger(root) || positionals.length === 0) {
  console.error('usage: npx tsx bench/cpu-by-role.ts --root PID -- <command …>');
  process.exit(2);
}
const TICKS_PER_SECOND = 100;

interface Proc {
  pid: number;
  ppid: number;
  ticks: number;
  cmdline: string;
}

function processes(): Proc[] {
  const out: Proc[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (in parentheses, which may hold spaces): state ppid …
      // utime(14) stime(15) cutime(16) cstime(17). The last two hold children that exited and were
      // reaped (a Postgres backend whose pool connection closed): gone from the tree, not lost.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      out.push({ pid: Number(entry), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]), cmdline });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function roleOf(cmdline: string): string {
  if (/entry\.ts api|hafatra(\.js)? api/.test(cmdline)) return 'api';
  if (/entry\.ts worker|hafatra(\.js)? worker/.test(cmdline)) return 'worker';
  const redis = /redis-server .*:(\d+)/.exec(cmdline);
  if (redis) return `redis:${redis[1]}`;
  if (cmdline.startsWith('nginx')) return 'nginx';
  if (cmdline.startsWith('postgres') || cmdline.includes('/bin/postgres')) return 'postgres';
  return 'other';
}

/** CPU ticks by role of every process under root (the node processes' own children included). */
function sample(): Map<string, { ticks: number; pids: Set<number> }> {
  const all = processes();
  const children = new Map<number, Proc[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const byRole = new Map<string, { ticks: number; pids: Set<number> }>();
  const walk = (pid: number, inherited: string | null) => {
    for (const child of children.get(pid) ?? []) {
      const own = roleOf(child.cmdline);
      // A process with no role of its own (tsx's node, a postgres backend) counts for its parent's.
      const role = own === 'other' ? (inherited ?? 'other') : own;
      const entry = byRole.get(role) ?? { ticks: 0, pids: new Set<number>() };
      entry.ticks += child.ticks;
      entry.pids.add(child.pid);
      byRole.set(role, entry);
      walk(child.pid, role === 'other' ? inherited : role);
    }
  };
  walk(root, null);
  return byRole;
}

const before = sample();
const started = performance.now();
const child = spawn(positionals[0]!, positionals.slice(1), { stdio: 'inherit' });
const code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? 1)));
const seconds = (performance.now() - started) / 1000;
const after = sample();
console.log(`\nCPU seconds by role over ${seconds.toFixed(1)} s of wall time (processes under PID ${root}):`);
console.log('| role | processes | CPU s | cores busy |');
console.log('| --- | --- | --- | --- |');
for (const [role, now] of [...after.entries()].sort()) {
  const then = before.get(role)?.ticks ?? 0;
  const cpu = (now.ticks - then) / TICKS_PER_SECOND;
  console.log(`| ${role} | ${now.pids.size} | ${cpu.toFixed(2)} | ${(cpu / seconds).toFixed(2)} |`);
}
process.exit(code);
