// `npm run bench:cpu -- <git-rev> [get|list|send …] [--rounds 4] [--connections 64]`: the CPU
// that one request (or one accepted message) costs the API process, Postgres and Redis, for
// <git-rev>'s build and this checkout's, their API processes started in turn against the same
// embedded Postgres and Redis. Read from /proc (user + system time), so it holds where throughput
// does not: a change of 3% of the API's CPU shows here and is lost in bench:compare's ±10%.
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startEmbeddedServices } from '../src/launcher/embedded-services.js';
import { pickFreePort } from '../src/launcher/free-port.js';
import { loadConfig } from '../src/config/config.js';
import { openContext, closeContext } from '../src/app/runtime.js';
import { createTenants } from './target/local-fixtures.js';
import { pinned, runHafatra, startChild, waitForHttp } from './target/processes.js';
import { benchEnv } from './target/api-env.js';
import { commitOf, prepareBase, run } from './lib/base-build.js';
import { sendBody } from './lib/recipients.js';
import { cpuTable, type CpuRun } from './report/cpu-table.js';

const WORKLOADS = ['get', 'list', 'send'] as const;
type Workload = (typeof WORKLOADS)[number];
/** Requests measured per run (after a quarter as many to warm up); a send is 500 messages. */
const AMOUNT: Record<Workload, number> = { get: 60_000, list: 6_000, send: 190 };
const TICK_US = 10_000;

const { values, positionals } = parseArgs({ options: { rounds: { type: 'string', default: '4' }, connections: { type: 'string', default: '64' } }, allowPositionals: true });
const [rev, ...asked] = positionals;
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const workloads = (asked.length > 0 ? asked : [...WORKLOADS]) as Workload[];
if (!rev || !Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(connections) || connections < 1 || workloads.some((w) => !WORKLOADS.includes(w))) {
  console.error('usage: npm run bench:cpu -- <git-rev> [get|list|send …] [--rounds 4] [--connections 64]');
  process.exit(2);
}

/** user + system ticks of one process, or of every process whose command line matches. */
function ticksOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
function ticksMatching(test: (cmdline: string) => boolean): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (test(readFileSync(`/proc/${entry}/cmdline`, 'utf8'))) ticks += ticksOf(Number(entry));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return ticks;
}
const postgresTicks = () => ticksMatching((c) => c.startsWith('postgres'));
const redisTicks = () => ticksMatching((c) => c.includes('redis-server'));

const base = { name: rev, dir: prepareBase(commitOf(rev)) };
const here = { name: 'this build', dir: resolve('.') };
for (const b of [base, here]) run('npm', ['run', 'build', '--silent'], b.dir);

const dataDir = await mkdtemp(join(tmpdir(), 'hafatra-cpu-'));
const services = await startEmbeddedServices({ dataDir });
const port = await pickFreePort();
const url = `http://127.0.0.1:${port}`;
const env = benchEnv(services, port);
const runs: CpuRun[] = [];
try {
  await runHafatra(['migrate'], env);
  const ctx = openContext(loadConfig({ LOG_LEVEL: 'silent' }, { databaseUrl: services.databaseUrl, redisUrl: services.redisUrl }), 'bench');
  // One organization to read (2,000 messages), and two for each send run (warm-up, measured): a day's limit is 100,000 messages.
  const tenants = await createTenants(ctx, 1 + (workloads.includes('send') ? rounds * 4 : 0));
  await closeContext(ctx);
  const reader = tenants.shift()!;

  const startApi = async (dir: string) => {
    const api = startChild(pinned(0, ['node', join(dir, 'bin/hafatra.js'), 'api']), env, 'hafatra api');
    await waitForHttp(`${url}/healthz`, api);
    return api;
  };
  const ids: string[] = [];
  {
    const api = await startApi(here.dir);
    for (let i = 0; i < 4; i++) {
      const r = await fetch(`${url}/v1/messages`, { method: 'POST', headers: { authorization: `Bearer ${reader.key}`, 'content-type': 'application/json' }, body: sendBody(500, i * 500) });
      if (r.status !== 202) throw new Error(`seeding answered ${r.status}: ${await r.text()}`);
      ids.push(...((await r.json()) as { messages: { id: string }[] }).messages.map((m) => m.id));
    }
    await api.stop();
  }
  const load = (workload: Workload, amount: number) => {
    if (workload === 'send') {
      const key = tenants.shift()!.key;
      return autocannon({
        url: `${url}/v1/messages`,
        method: 'POST',
        connections: Math.min(connections, 8),
        amount,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: sendBody(),
      });
    }
    const headers = { authorization: `Bearer ${reader.key}` };
    const requests = workload === 'get' ? ids.map((id) => ({ path: `/v1/messages/${id}` })) : [{ path: '/v1/messages?limit=100' }];
    return autocannon({ url, connections, amount, headers, requests });
  };

  for (const workload of workloads) {
    for (let round = 1; round <= rounds; round++) {
      for (const build of round % 2 === 1 ? [base, here] : [here, base]) {
        const api = await startApi(build.dir);
        await load(workload, Math.ceil(AMOUNT[workload] / 4));
        const before = { api: ticksOf(api.proc.pid!), postgres: postgresTicks(), redis: redisTicks(), at: performance.now() };
        const result = await load(workload, AMOUNT[workload]);
        const seconds = (performance.now() - before.at) / 1000;
        const units = result['2xx'] * (workload === 'send' ? 500 : 1);
        const per = (ticks: number) => (ticks * TICK_US) / units;
        runs.push({
          workload,
          build: build.name,
          round,
          apiUs: per(ticksOf(api.proc.pid!) - before.api),
          postgresUs: per(postgresTicks() - before.postgres),
          redisUs: per(redisTicks() - before.redis),
          perSecond: units / seconds,
          failed: result.non2xx + result.errors,
        });
        await api.stop();
        const r = runs.at(-1)!;
        console.log(
          `${workload} ${build.name} round ${round}: API ${r.apiUs.toFixed(2)} µs, Postgres ${r.postgresUs.toFixed(2)}, Redis ${r.redisUs.toFixed(2)} (${Math.round(r.perSecond)}/s, ${r.failed} failed)`,
        );
      }
    }
  }
} finally {
  await services.stop();
  await rm(dataDir, { recursive: true, force: true });
}
const table = cpuTable(runs, base.name, here.name);
console.log(`\n${table}`);
const out = join('bench', 'results');
mkdirSync(out, { recursive: true });
const file = join(out, `cpu-compare-${new Date().toISOString().replace(/[:.]/g, '-')}.md`);
writeFileSync(file, `${table}\n`);
console.log(`\n${file}`);
