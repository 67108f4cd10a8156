// `npx tsx bench/cpu-by-role.ts [--root PID] -- <command …>`: CPU seconds each part of a deployment
// spent while <command> ran. Without --root, the processes <command> starts: a local bench run
// (`-- npx tsx bench/run.ts fleet --seconds 3`) with its API, worker, Postgres, Redis and phones.
// With --root, those under that PID too (a bench against bench/loopback-cluster.ts, whose PID is
// --root). Read from /proc (user + system time) every 250 ms, grouped by role: api, worker, nginx,
// postgres, each redis-server by port, the bench's phones, and the rest. A process's last reading
// is kept when it exits (a Postgres backend whose connection closed, the local run's servers at
// its end), so up to 250 ms of a process's last moments is missed. CPU time per message holds
// steadier than throughput on a shared machine: it is what docs/capacity.md sizes nodes by.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ options: { root: { type: 'string' } }, allowPositionals: true });
const roots = values.root === undefined ? [process.pid] : [Number(values.root), process.pid];
if (roots.some((r) => !Number.isInteger(r)) || positionals.length === 0) {
  console.error('usage: npx tsx bench/cpu-by-role.ts [--root PID] -- <command …>');
  process.exit(2);
}
const TICKS_PER_SECOND = 100;
const SAMPLE_MS = 250;

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
      // utime(14) stime(15). A child's time is its own reading, not its parent's cutime: a
      // process reaped between two samples would otherwise count twice.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      out.push({ pid: Number(entry), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]), cmdline });
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
  if (cmdline.includes('phones/fleet-process') || cmdline.includes('phones/app-fleet')) return 'phones';
  return 'other';
}

/** Each process under the roots: its role (a process with none of its own counts for its parent's) and ticks. */
function tree(): Map<number, { role: string; ticks: number }> {
  const all = processes();
  const children = new Map<number, Proc[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const found = new Map<number, { role: string; ticks: number }>();
  const walk = (pid: number, inherited: string | null) => {
    for (const child of children.get(pid) ?? []) {
      if (found.has(child.pid)) continue;
      const own = roleOf(child.cmdline);
      const role = own === 'other' ? (inherited ?? 'other') : own;
      found.set(child.pid, { role, ticks: child.ticks });
      walk(child.pid, role === 'other' ? inherited : role);
    }
  };
  for (const root of roots) walk(root, null);
  return found;
}

// Ticks each process had before the command started, and each one's latest reading since.
const before = new Map([...tree()].map(([pid, p]) => [pid, p.ticks]));
const latest = new Map<number, { role: string; ticks: number }>();
const sample = () => {
  for (const [pid, p] of tree()) latest.set(pid, { role: p.role, ticks: p.ticks - (before.get(pid) ?? 0) });
};
const started = performance.now();
const child = spawn(positionals[0]!, positionals.slice(1), { stdio: 'inherit' });
const timer = setInterval(sample, SAMPLE_MS);
const code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? 1)));
clearInterval(timer);
sample();
const seconds = (performance.now() - started) / 1000;
const byRole = new Map<string, { ticks: number; pids: number }>();
for (const { role, ticks } of latest.values()) {
  const entry = byRole.get(role) ?? { ticks: 0, pids: 0 };
  entry.ticks += ticks;
  entry.pids += 1;
  byRole.set(role, entry);
}
console.log(`\nCPU seconds by role over ${seconds.toFixed(1)} s of wall time (processes under ${values.root === undefined ? 'the command' : `PID ${values.root} and the command`}):`);
console.log('| role | processes | CPU s | cores busy |');
console.log('| --- | --- | --- | --- |');
for (const [role, { ticks, pids }] of [...byRole.entries()].sort()) {
  const cpu = ticks / TICKS_PER_SECOND;
  console.log(`| ${role} | ${pids} | ${cpu.toFixed(2)} | ${(cpu / seconds).toFixed(2)} |`);
}
process.exit(code);
