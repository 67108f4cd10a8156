// Webhook throughput probe: Postgres and Redis embedded, the receiver and the worker each in
// their own process, events written to the outbox from here. Prints deliveries per second to one
// fast endpoint alone, then beside an endpoint that never answers.
//
//   npx tsx test/webhooks/probe/probe.ts [--events 5000] [--rounds 3] [--no-hang] [--cpu-prof DIR] [--concurrency N] [--per-endpoint N]
//
// rate = events ÷ (last arrival − start of writing the events), so it includes writing them and
// the relay's 200 ms tick. Each round also prints the cores each process kept busy ("other
// users": the rest of the machine, which is shared): compare runs by ratios measured together.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { startEmbeddedServices } from '../../../src/launcher/embedded-services.js';
import { createDb, inTransaction, type Db } from '../../../src/db/pool.js';
import { migrate } from '../../../src/db/migrate.js';
import { insertOrganization } from '../../../src/orgs/sql/insert-organization.js';
import { insertEndpoint } from '../../../src/webhooks/endpoint-store.js';
import { recordEvents } from '../../../src/events/record-events.js';
import { newWebhookSecret } from '../../../src/webhooks/delivery/signature.js';
import { createDevCertificate } from '../../../src/webhooks/delivery/dev-certificate.js';

interface PathCount {
  n: number;
  first: number;
  last: number;
}

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '3' },
    'no-hang': { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
    concurrency: { type: 'string' },
    'per-endpoint': { type: 'string' },
  },
});
const EVENTS = Number(args.events);
const here = (file: string) => join(import.meta.dirname, file);

function child(file: string, env: NodeJS.ProcessEnv, execArgv: string[] = []): ChildProcess {
  return fork(here(file), { env: { ...process.env, ...env }, execArgv: ['--import', 'tsx', ...execArgv], stdio: 'inherit' });
}
const nextMessage = <T>(p: ChildProcess) => new Promise<T>((resolve) => p.once('message', (m) => resolve(m as T)));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function ask<T>(p: ChildProcess, type: string): Promise<T> {
  const reply = nextMessage<T>(p);
  p.send({ type });
  return reply;
}
const counts = async (receiver: ChildProcess) => (await ask<{ counts: Record<string, PathCount> }>(receiver, 'counts')).counts;
const cpuMsOf = async (p: ChildProcess) => (await ask<{ cpuMs: number }>(p, p === probe.receiver ? 'counts' : 'cpu')).cpuMs;

/** CPU time of the whole machine (every process, ours and others'), in ms. */
function machineCpuMs(): number {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
  return ((user! + nice! + system! + irq! + softirq! + steal!) * 1000) / 100; // USER_HZ = 100
}

/** CPU time (ms) of each process visible here whose command line matches, by pid. */
function processesCpuMs(match: RegExp): Map<string, number> {
  const byPid = new Map<string, number>();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (!match.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byPid.set(pid, (Number(fields[11]) + Number(fields[12])) * 10); // utime + stime, 10 ms ticks
    } catch {
      // the process ended meanwhile
    }
  }
  return byPid;
}

/** CPU used since `before` by processes still alive (a connection closed meanwhile takes its share with it). */
function cpuSince(before: Map<string, number>, after: Map<string, number>): number {
  let ms = 0;
  for (const [pid, now] of after) ms += now - (before.get(pid) ?? 0);
  return ms;
}

const ownCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** CPU used during `run` by each process of the probe, and by everything else on the machine (other users). */
async function withCpu<T>(run: () => Promise<T>): Promise<{ result: T; cpu: string }> {
  const sample = async () => ({
    ours: [await cpuMsOf(probe.worker!), await cpuMsOf(probe.receiver!), ownCpuMs(), machineCpuMs(), Date.now()],
    postgres: processesCpuMs(/^postgres/),
    redis: processesCpuMs(/redis-server/),
  });
  const before = await sample();
  const result = await run();
  const after = await sample();
  const [worker, receiver, own, machine, wall] = after.ours.map((a, i) => a - before.ours[i]!) as [number, number, number, number, number];
  const postgres = cpuSince(before.postgres, after.postgres);
  const redis = cpuSince(before.redis, after.redis);
  const cores = (ms: number) => (ms / wall).toFixed(2);
  const others = machine - worker - receiver - postgres - redis - own;
  return {
    result,
    cpu: `cores busy: worker ${cores(worker)}, receiver ${cores(receiver)}, postgres ${cores(postgres)}, redis ${cores(redis)}, events writer ${cores(own)}, other users ${cores(others)}`,
  };
}

const probe: { worker?: ChildProcess; receiver?: ChildProcess } = {};

async function emit(db: Db, orgId: string, n: number): Promise<void> {
  for (let i = 0; i < n; i += 500) {
    const batch = Array.from({ length: Math.min(500, n - i) }, (_, j) => ({
      type: 'message.sent' as const,
      data: () => ({ id: `msg_probe${i + j}`, status: 'sent', to: '+261340000000', body: 'x'.repeat(160) }),
    }));
    await inTransaction(db, (tx) => recordEvents(tx, orgId, batch));
  }
}

async function round(db: Db, orgId: string, receiver: ChildProcess, label: string) {
  const before = (await counts(receiver))['/ok']?.n ?? 0;
  const started = Date.now();
  await emit(db, orgId, EVENTS);
  const deadline = Date.now() + 120_000;
  let c: PathCount | undefined;
  while (Date.now() < deadline) {
    c = (await counts(receiver))['/ok'];
    if (c && c.n - before >= EVENTS) break;
    await sleep(20);
  }
  const got = (c?.n ?? 0) - before;
  const rate = got / ((c!.last - started) / 1000);
  return { rate, line: `${label}: ${got}/${EVENTS} in ${c!.last - started} ms → ${Math.round(rate)}/s` };
}

async function measuredRound(db: Db, orgId: string, label: string): Promise<number> {
  const { result, cpu } = await withCpu(() => round(db, orgId, probe.receiver!, label));
  console.log(`${result.line} (${cpu})`);
  return result.rate;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dataDir = await mkdtemp(join(tmpdir(), 'hafatra-probe-'));
const services = await startEmbeddedServices({ dataDir });
const db = createDb(services.databaseUrl, 4);
const workers: ChildProcess[] = [];
let receiver: ChildProcess | undefined;
try {
  await migrate(db);
  const cert = createDevCertificate();
  receiver = probe.receiver = child('receiver-process.ts', { PROBE_CERT: cert.cert, PROBE_KEY: cert.key });
  const { port } = await nextMessage<{ port: number }>(receiver);
  const org = await insertOrganization(db, { name: `probe-${randomBytes(4).toString('hex')}` });
  const base = `https://localhost:${port}`;
  await insertEndpoint(db, org.id, { url: `${base}/ok`, description: null, eventTypes: ['message.sent'], secret: newWebhookSecret() });
  const worker = child(
    'worker-process.ts',
    {
      DATABASE_URL: services.databaseUrl,
      REDIS_URL: services.redisUrl,
      HAFATRA_REDIS_PREFIX: `probe${randomBytes(3).toString('hex')}`,
      HAFATRA_WEBHOOK_ALLOW_HOSTS: 'localhost',
      LOG_LEVEL: 'warn',
      PROBE_CERT: cert.cert,
      PROBE_CONCURRENCY: args.concurrency,
      PROBE_PER_ENDPOINT: args['per-endpoint'],
    },
    args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof']}`] : [],
  );
  workers.push(worker);
  probe.worker = worker;
  await nextMessage(worker);
  const alone: number[] = [];
  for (let r = 0; r < Number(args.rounds); r++) alone.push(await measuredRound(db, org.id, `alone #${r + 1}`));
  console.log(`alone: median ${Math.round(median(alone))}/s, best ${Math.round(Math.max(...alone))}/s`);
  if (!args['no-hang']) {
    await insertEndpoint(db, org.id, { url: `${base}/hang`, description: null, eventTypes: ['message.sent'], secret: newWebhookSecret() });
    const beside: number[] = [];
    for (let r = 0; r < Number(args.rounds); r++) beside.push(await measuredRound(db, org.id, `beside /hang #${r + 1}`));
    const lower = (a: number, b: number) => `${Math.round((1 - b / a) * 100)}% lower`;
    console.log(
      `beside a hanging endpoint: median ${Math.round(median(beside))}/s (${lower(median(alone), median(beside))}), best ${Math.round(Math.max(...beside))}/s (${lower(Math.max(...alone), Math.max(...beside))})`,
    );
  }
} finally {
  for (const w of workers) {
    w.send({ type: 'stop' });
    // Closing waits for jobs in progress; the hanging endpoint's last attempts take a timeout.
    const exited = await Promise.race([new Promise((r) => w.once('exit', () => r(true))), sleep(30_000)]);
    if (!exited) w.kill();
  }
  receiver?.send({ type: 'stop' });
  await db.end();
  await services.stop();
  await rm(dataDir, { recursive: true, force: true });
}
