// Webhook throughput probe: Postgres and Redis embedded, the receiver and the worker each in
// their own process, events written to the outbox from here. Prints deliveries per second to one
// fast endpoint alone, then beside an endpoint that never answers.
//
//   npx tsx test/webhooks/probe/probe.ts [--events 5000] [--rounds 3] [--no-hang] [--cpu-prof DIR] [--concurrency N] [--per-endpoint N]
//
// rate = events ÷ (last arrival − first event committed); "steady" leaves out the relay's start.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { startEmbeddedServices } from '../../../src/launcher/embedded-services.js';
import { createDb, inTransaction, type Db } from '../../../src/db/pool.js';
import { migrate } from '../../../src/db/migrate.js';
import { insertOrganization } from '../../../src/orgs/org-store.js';
import { insertEndpoint } from '../../../src/webhooks/endpoint-store.js';
import { recordEvents } from '../../../src/events/record-events.js';
import { newWebhookSecret } from '../../../src/webhooks/delivery/signature.js';
import { createDevCertificate } from '../../../src/webhooks/delivery/dev-certificate.js';

interface PathCount { n: number; first: number; last: number }

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

async function counts(receiver: ChildProcess): Promise<Record<string, PathCount>> {
  const reply = nextMessage<{ counts: Record<string, PathCount> }>(receiver);
  receiver.send({ type: 'counts' });
  return (await reply).counts;
}

async function emit(db: Db, orgId: string, n: number): Promise<void> {
  for (let i = 0; i < n; i += 500) {
    const batch = Array.from({ length: Math.min(500, n - i) }, (_, j) => ({ type: 'message.sent' as const, data: () => ({ id: `msg_probe${i + j}`, status: 'sent', to: '+261340000000', body: 'x'.repeat(160) }) }));
    await inTransaction(db, (tx) => recordEvents(tx, orgId, batch));
  }
}

async function round(db: Db, orgId: string, receiver: ChildProcess, label: string): Promise<number> {
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
  console.log(`${label}: ${got}/${EVENTS} in ${c!.last - started} ms → ${Math.round(rate)}/s`);
  return rate;
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
  receiver = child('receiver-process.ts', { PROBE_CERT: cert.cert, PROBE_KEY: cert.key });
  const { port } = await nextMessage<{ port: number }>(receiver);
  const org = await insertOrganization(db, { name: `probe-${randomBytes(4).toString('hex')}` });
  const base = `https://localhost:${port}`;
  await insertEndpoint(db, org.id, { url: `${base}/ok`, description: null, eventTypes: ['message.sent'], secret: newWebhookSecret() });
  const worker = child('worker-process.ts', {
    DATABASE_URL: services.databaseUrl,
    REDIS_URL: services.redisUrl,
    HAFATRA_REDIS_PREFIX: `probe${randomBytes(3).toString('hex')}`,
    HAFATRA_WEBHOOK_ALLOW_HOSTS: 'localhost',
    LOG_LEVEL: 'warn',
    PROBE_CERT: cert.cert,
    PROBE_CONCURRENCY: args.concurrency,
    PROBE_PER_ENDPOINT: args['per-endpoint'],
  }, args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof']}`] : []);
  workers.push(worker);
  await nextMessage(worker);
  const alone: number[] = [];
  for (let r = 0; r < Number(args.rounds); r++) alone.push(await round(db, org.id, receiver, `alone #${r + 1}`));
  console.log(`alone: median ${Math.round(median(alone))}/s`);
  if (!args['no-hang']) {
    await insertEndpoint(db, org.id, { url: `${base}/hang`, description: null, eventTypes: ['message.sent'], secret: newWebhookSecret() });
    const beside: number[] = [];
    for (let r = 0; r < Number(args.rounds); r++) beside.push(await round(db, org.id, receiver, `beside /hang #${r + 1}`));
    console.log(`beside a hanging endpoint: median ${Math.round(median(beside))}/s (${Math.round((1 - median(beside) / median(alone)) * 100)}% lower)`);
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
