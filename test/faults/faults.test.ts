/**
 * The fault suite (issue 17): a deployment of real processes, as in production (its own Postgres
 * and Redis, `hafatra api` and `hafatra worker` children, phones on sockets, an HTTPS webhook
 * receiver), with faults injected while messages flow: kill -9 of the API and of the worker,
 * Postgres and Redis stopped and started, Redis flushed, an API killed for good under its phones,
 * a phone flooding frames beside an anonymous flood. After
 * each, the checks of checks.ts: every 202'd message durable and sent once, terminal with the
 * status its phone reported, idempotent retries answered, the daily counter equal to the rows,
 * every webhook event delivered at least once. Figures (seconds of unavailability, duplicates)
 * are printed as `[faults] {...}`; docs/operations.md quotes them.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { once } from 'node:events';
import WebSocket from 'ws';
import { createPairingCode } from '../../src/devices/pairing.js';
import { insertOrganization } from '../../src/orgs/sql/insert-organization.js';
import { DeviceClient } from '../../src/phone/device-client.js';
import { checkScenario, RECOVERY_DEADLINE_MS, type Verdict } from './checks.js';
import { SEND_TIMING } from '../../src/sending/admission.js';
import { RESERVATION_SWEEP_MS } from '../../src/sending/reservations.js';
import { openScenario, secondsSince, within, type Scenario } from './scenario.js';
import { startTopology, type ServiceChild, type Topology } from './topology.js';

/**
 * How long a dead API's phones may still read `online` (finding 7): the suite's 4 s presence lease
 * plus a 1 s sweep (topology.ts), with room for a busy machine.
 */
const PRESENCE_DEADLINE_MS = 15_000;

let topo: Topology;
let api: ServiceChild;
let worker: ServiceChild;
/** A second API process, for the phones of the presence scenario (killed there for good). */
let doomed: ServiceChild;
const apiUrl = () => api.url;

beforeAll(async () => {
  topo = await startTopology();
  [api, worker, doomed] = await Promise.all([topo.spawn('api'), topo.spawn('worker'), topo.spawn('api')]);
}, 120_000);

afterAll(async () => {
  await topo?.close();
}, 60_000);

/** Each verdict is its own soft assertion: one run lists every broken guarantee. */
function report(s: Scenario, verdicts: Verdict[]): void {
  console.log(`[faults] ${s.name} ${JSON.stringify(s.figures)}`);
  if (verdicts.some((v) => !v.ok)) {
    for (const p of [api, worker]) console.log(`[faults] ${s.name}: ${p.role} ${p.exit ?? 'running'}, stderr tail: ${p.stderr.join('').slice(-1500)}`);
  }
  for (const v of verdicts) expect.soft(v.ok, `${s.name}: ${v.name}${v.ok ? '' : ` (${v.detail})`}`).toBe(true);
}

async function committedKeys(s: Scenario, keys: string[]): Promise<number> {
  const { rows } = await topo.ctx.db.query('SELECT count(*)::int AS n FROM batches WHERE org_id = $1 AND idempotency_key = ANY($2::text[])', [s.orgId, keys]);
  return rows[0].n as number;
}

/** Restarts what a fault killed (the API on its port), so the rest of the scenario and those after it can run. */
async function ensureProcesses(): Promise<void> {
  await Promise.all([
    api.exit
      ? topo.spawn('api', api.port).then((p) => {
          api = p;
        })
      : undefined,
    worker.exit
      ? topo.spawn('worker').then((p) => {
          worker = p;
        })
      : undefined,
  ]);
}

async function phonesConnected(s: Scenario, timeoutMs: number): Promise<boolean> {
  return (await within(timeoutMs, () => s.fleet.phones.every((p) => p.client.connected))) === true;
}

/** A scenario with messages flowing (sends until stopSending) once 150 of them were accepted. */
async function flowing(name: string): Promise<{ s: Scenario; stopSending(): Promise<void> }> {
  const s = await openScenario(topo, name, { apiUrl, phones: 4 });
  let stop = false;
  const sending = s.sender.run(1_000_000, 10, 3, () => stop);
  await within(60_000, () => s.sender.accepted().size >= 150, 5);
  return {
    s,
    stopSending: async () => {
      stop = true;
      await sending;
    },
  };
}

it('kill -9 of the API mid-batch: retries answered with the committed batch, nothing lost or doubled', async () => {
  const s = await openScenario(topo, 'api-kill', { apiUrl, phones: 4 });
  const sending = s.sender.run(50, 10, 4);
  await within(60_000, () => s.sender.accepted().size >= 150, 5);
  const killedAt = Date.now();
  await topo.kill9(api);
  await sending; // what was in flight, and what came after, got no answer
  const lost = s.sender.unanswered();
  s.figures.requestsWithoutAnswer = lost.length;
  api = await topo.spawn('api', api.port);
  s.figures.apiDownSeconds = secondsSince(killedAt); // kill to listening again: the restart's cost
  const backAt = Date.now();
  s.figures.lostButCommitted = await committedKeys(
    s,
    lost.map((r) => r.key),
  );
  const reconnected = await phonesConnected(s, 10_000);
  s.figures.phonesReconnectedSeconds = secondsSince(backAt);
  const verdicts = await checkScenario(topo, s);
  s.figures.settledAfterRestartSeconds = secondsSince(backAt);
  verdicts.push({ name: 'every phone reconnected to the restarted API', ok: reconnected, detail: '' });
  report(s, verdicts);
  await s.fleet.close();
}, 150_000);

it('kill -9 of the worker mid-flow: queues, sweeps and webhooks resume, nothing lost or doubled', async () => {
  const s = await openScenario(topo, 'worker-kill', { apiUrl, phones: 4 });
  const sending = s.sender.run(40, 10, 3);
  // Mid-flow: messages are being sent and their webhooks delivered.
  await within(60_000, () => s.sender.accepted().size >= 150 && topo.receiver.requests.length > 0, 5);
  const killedAt = Date.now();
  await topo.kill9(worker);
  worker = await topo.spawn('worker');
  s.figures.workerDownSeconds = secondsSince(killedAt);
  await sending;
  report(s, await checkScenario(topo, s));
  await s.fleet.close();
}, 150_000);

/**
 * A server of the deployment stopped and started while messages flow: every process stays up,
 * requests meanwhile are answered 500/503 in the error shape, the API serves again within
 * seconds of the server's return, and then every check holds.
 */
async function outage(name: string, server: { stop(): Promise<void>; start(): Promise<void> }): Promise<void> {
  const { s, stopSending } = await flowing(name);
  const stoppedAt = Date.now();
  await server.stop();
  // Requests keep coming during the outage: each must get an answer in the error shape.
  await within(20_000, () => s.sender.answersSince(stoppedAt).length >= 10 || api.exit !== undefined, 20);
  const startedAt = Date.now();
  s.figures.downSeconds = secondsSince(stoppedAt);
  await server.start();
  const servingAgain = await within(RECOVERY_DEADLINE_MS, () => s.sender.answersSince(startedAt).some((a) => a.kind === 'accepted'), 20);
  s.figures.servingAgainSeconds = servingAgain ? secondsSince(startedAt) : `not within ${RECOVERY_DEADLINE_MS / 1000} s`;
  await stopSending();
  const verdicts: Verdict[] = [];
  for (const p of [api, worker]) {
    verdicts.push({ name: `the ${p.role} process survives`, ok: p.exit === undefined, detail: `${p.exit}: ${p.stderr.join('').slice(-600)}` });
  }
  const during = s.sender.answersSince(stoppedAt).filter((a) => a.at < startedAt && a.kind !== 'accepted');
  const badAnswers = during.filter((a) => !(a.kind === 'refused' && (a.status === 500 || a.status === 503) && a.errorShape));
  s.figures.answersDuringOutage = during.length;
  verdicts.push({
    name: 'requests during the outage answered 500/503 in the error shape',
    ok: badAnswers.length === 0,
    detail: `${badAnswers.length} of ${during.length}: ${JSON.stringify(badAnswers.slice(0, 3))}`,
  });
  verdicts.push({ name: 'the API serves again within seconds of the server coming back, without a restart', ok: servingAgain === true, detail: String(s.figures.servingAgainSeconds) });
  await ensureProcesses();
  await phonesConnected(s, 20_000);
  verdicts.push(...(await checkScenario(topo, s)));
  report(s, verdicts);
  await s.fleet.close();
}

it('Postgres stopped (fast) and started during sends and reports: the API answers 500s, then serves again', async () => {
  await outage('postgres-restart', topo.postgres);
}, 150_000);

it('Redis stopped and started (append-only file kept) during sends and reports: the API answers 500s, then serves again', async () => {
  await outage('redis-restart', topo.redis);
}, 150_000);

it('Redis FLUSHALL during flow: queues, counters and keys rebuilt from Postgres, nothing lost or sent twice', async () => {
  const { s, stopSending } = await flowing('redis-flush');
  const flushedAt = Date.now();
  await topo.ctx.redis.flushall();
  const after = await within(RECOVERY_DEADLINE_MS, () => s.sender.answersSince(flushedAt).filter((a) => a.kind === 'accepted').length >= 20, 20);
  s.figures.acceptingAgainAfterFlushSeconds = after ? secondsSince(flushedAt) : `not within ${RECOVERY_DEADLINE_MS / 1000} s`;
  await stopSending();
  // A send in flight at the flush may commit after its counter was seeded from Postgres: the
  // worker counts the seeded counter again once such sends are over.
  const verdicts = await checkScenario(topo, s, SEND_TIMING.recountAfterSeedMs + RESERVATION_SWEEP_MS + 15_000);
  s.figures.settledAfterFlushSeconds = secondsSince(flushedAt);
  report(s, verdicts);
  await s.fleet.close();
}, 150_000);

it('an API killed for good under its phones: they read offline within the presence lease, on any API process', async () => {
  const s = await openScenario(topo, 'presence', { apiUrl: () => doomed.url, phones: 2 });
  const presence = async (): Promise<Array<{ status: string; connected: boolean }>> =>
    Promise.all(
      s.fleet.phones.map(async (p) => {
        const res = await fetch(`${api.url}/v1/devices/${p.deviceId}`, { headers: { authorization: `Bearer ${s.key}` } });
        const d = (await res.json()) as { status: string; socket: { connected: boolean } };
        return { status: d.status, connected: d.socket.connected };
      }),
    );
  const online = await within(10_000, async () => (await presence()).every((p) => p.connected && p.status === 'online'));
  expect(online, 'the phones read online through the other API process').toBe(true);
  const killedAt = Date.now();
  await topo.kill9(doomed);
  let last: Array<{ status: string; connected: boolean }> = [];
  const cleared = await within(
    PRESENCE_DEADLINE_MS,
    async () => {
      last = await presence();
      return last.every((p) => !p.connected && p.status !== 'online');
    },
    250,
  );
  s.figures.presenceClearedSeconds = cleared ? secondsSince(killedAt) : `not within ${PRESENCE_DEADLINE_MS / 1000} s`;
  report(s, [{ name: "a dead API's phones read offline within the presence lease", ok: cleared === true, detail: JSON.stringify(last) }]);
  await s.fleet.close();
}, 90_000);

it('a phone flooding frames and an anonymous flood during flow: the flood is cut off, the rest answered, nothing lost or sent twice', async () => {
  const { s, stopSending } = await flowing('floods');
  // The flooding phone is another organization's: this one's sends must not notice it.
  const other = await insertOrganization(topo.ctx.db, { name: `faults-flooder-${Date.now()}` });
  const { code } = await createPairingCode(topo.ctx, other.id);
  const flooder = await DeviceClient.pair(api.url, { code, name: 'Flooding phone', model: 'Simulator' });
  const ws = new WebSocket(`${api.url.replace('http', 'ws')}/device/v1/socket`, { headers: { authorization: `Bearer ${flooder.token}` } });
  await once(ws, 'open');
  const closed = once(ws, 'close').then(([c]) => c as number);
  const floodAt = Date.now();
  for (let i = 0; i < 20_000; i++) ws.send(`{"type":"heartbeat","ref":"f${i}","defaultSmsApp":true}`);
  // Beside it, 2,000 requests without a key, 100 at a time.
  let anonymous5xx = 0;
  for (let round = 0; round < 20; round++) {
    const statuses = await Promise.all(
      Array.from({ length: 100 }, () =>
        fetch(`${api.url}/openapi.json`).then(
          (r) => r.status,
          () => 0,
        ),
      ),
    );
    anonymous5xx += statuses.filter((st) => st >= 500 || st === 0).length;
  }
  const closeCode = await Promise.race([closed, new Promise<number>((r) => setTimeout(() => r(-1), 30_000))]);
  s.figures.floodClosedAfterSeconds = secondsSince(floodAt);
  await stopSending();
  const sendsDuring = s.sender.answersSince(floodAt);
  const failed = sendsDuring.filter((a) => a.kind !== 'accepted' && !(a.kind === 'refused' && a.status === 429));
  s.figures.sendsDuringFlood = sendsDuring.length;
  const verdicts: Verdict[] = [
    { name: 'the flooding phone is closed with 4029', ok: closeCode === 4029, detail: String(closeCode) },
    { name: 'the API process survives the floods', ok: api.exit === undefined, detail: `${api.exit}: ${api.stderr.join('').slice(-600)}` },
    { name: 'the anonymous flood gets answers, never a 5xx', ok: anonymous5xx === 0, detail: `${anonymous5xx} of 2,000` },
    { name: "the organization's sends during the floods are all answered without a 5xx", ok: failed.length === 0, detail: JSON.stringify(failed.slice(0, 3)) },
    ...(await checkScenario(topo, s)),
  ];
  report(s, verdicts);
  ws.terminate();
  await s.fleet.close();
}, 150_000);
