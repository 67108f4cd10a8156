import calculateSlot from 'cluster-key-slot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisCluster } from '../../src/launcher/redis-cluster.js';
import { startTestRedisCluster } from '../support/redis-cluster.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { pairTestPhone } from '../support/phones.js';
import { startNodes, type HafatraNode, type Nodes, type SharedStores } from '../support/nodes.js';
import { startNginx, type Balancer } from '../support/nginx.js';
import { parsePrometheus, sampleValue } from '../support/prometheus.js';
import { SimulatedPhone } from '../../src/phone/simulated-phone.js';

/**
 * Issue 22: three `hafatra api` and two `hafatra worker` processes on one Postgres and a Redis
 * Cluster of their own (three masters with a replica each: this file kills one), behind nginx on
 * loopback, as a deployment of several nodes runs. Phones and senders know only nginx's address.
 */

const API_NODES = 3;
const WORKERS = 2;
const PHONES = 20;
const BATCH = 500;
const TOKEN = 'many-nodes-metrics-token';
/** How long the phones of a node that went away may take to be back online through nginx. */
const RECONNECT_DEADLINE_MS = 15_000;

/** Every node of the deployment runs with these. */
const NODE_SETTINGS: Record<string, string> = {
  HAFATRA_METRICS_TOKEN: TOKEN,
  // Five processes share the suite's Postgres with the other test files.
  HAFATRA_PG_POOL_SIZE: '6',
  // Long enough to see, short enough for the test: the production default is 5 s.
  HAFATRA_DRAIN_SECONDS: '2',
  HAFATRA_SWEEP_INTERVAL_MS: '1000',
};

let cluster: RedisCluster;
let app: TestApp;
let nodes: Nodes;
let nginx: Balancer;
let key: string;
let orgId: string;
const phones: SimulatedPhone[] = [];
/** messageId → how many times a phone reported it sent (acknowledged). */
const sentTimes = new Map<string, number>();
/** Every message id accepted so far, in the order the 202s came. */
const accepted: string[] = [];

async function scrape(node: HafatraNode): Promise<Map<string, number>> {
  const res = await fetch(`${node.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  if (res.status !== 200) throw new Error(`/metrics of ${node.url}: ${res.status}`);
  return parsePrometheus(await res.text());
}

const alive = (n: HafatraNode) => n.child.exitCode === null && n.child.signalCode === null;

/** Phones connected per running API node, as each node's hafatra_phones_connected says. */
async function phonesPerNode(): Promise<number[]> {
  return Promise.all(nodes.apis.filter(alive).map(async (n) => sampleValue(await scrape(n), 'hafatra_phones_connected')));
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

async function summed(name: string, labels: Record<string, string> = {}): Promise<number> {
  return sum(await Promise.all(nodes.apis.filter(alive).map(async (n) => sampleValue(await scrape(n), name, labels))));
}

/** POSTs `count` messages through nginx in sends of BATCH distinct recipients. */
async function sendThroughNginx(count: number, round: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += BATCH) {
    const to = Array.from({ length: Math.min(BATCH, count - i) }, (_, j) => `+26134${round}${String(i + j).padStart(6, '0')}`);
    const res = await fetch(`${nginx.url}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ to, body: 'Salama' }),
    });
    const body = (await res.json()) as { messages: { id: string }[] };
    if (res.status !== 202) throw new Error(`send through nginx: ${res.status} ${JSON.stringify(body)}`);
    ids.push(...body.messages.map((m) => m.id));
  }
  accepted.push(...ids);
  return ids;
}

const sentOnce = (ids: readonly string[]) => ids.every((id) => sentTimes.get(id) === 1);

async function statusCounts(): Promise<Record<string, number>> {
  const { rows } = await app.ctx.db.query('SELECT status, count(*)::int AS n FROM messages WHERE org_id = $1 GROUP BY status', [orgId]);
  return Object.fromEntries(rows.map((r: { status: string; n: number }) => [r.status, r.n]));
}

/** Every accepted message delivered, each sent by exactly one phone, once, and claimed once in Postgres. */
async function expectEachSentOnce(): Promise<void> {
  await expect.poll(() => sentOnce(accepted) && sum(phones.map((p) => p.counters.delivered)) === accepted.length, { timeout: 60_000, interval: 200 }).toBe(true);
  expect([...sentTimes.keys()].sort()).toEqual([...accepted].sort());
  expect([...sentTimes.values()].every((n) => n === 1)).toBe(true);
  expect(await statusCounts()).toEqual({ delivered: accepted.length });
  const { rows } = await app.ctx.db.query(
    `SELECT e.to_status AS status, count(*)::int AS n, count(DISTINCT e.message_id)::int AS messages
     FROM message_events e JOIN messages m ON m.id = e.message_id
     WHERE m.org_id = $1 AND e.to_status IN ('claimed', 'sent') GROUP BY e.to_status ORDER BY 1`,
    [orgId],
  );
  expect(rows).toEqual([
    { status: 'claimed', n: accepted.length, messages: accepted.length },
    { status: 'sent', n: accepted.length, messages: accepted.length },
  ]);
  const errors = phones.flatMap((p) => p.recentErrors);
  expect(errors).toEqual([]);
}

beforeAll(async () => {
  cluster = await startTestRedisCluster({ nodeTimeoutMs: 1_000 });
  app = await startTestApp({ redisUrl: cluster.url });
  const { config } = app.ctx;
  const stores: SharedStores = { databaseUrl: config.databaseUrl, redisUrl: config.redisUrl, redisPrefix: config.redisPrefix, env: NODE_SETTINGS };
  nodes = await startNodes(stores, { api: API_NODES, worker: WORKERS });
  nginx = await startNginx(nodes.apis.map((n) => n.port));
  // No carrier routing: every phone races for every message.
  const org = await app.createOrg({ dailyLimit: 100_000, carriers: [] });
  key = org.key;
  orgId = org.org.id;
  const tokens = await Promise.all(Array.from({ length: PHONES }, async () => (await pairTestPhone(app, orgId, { pacingPerMinute: 1_000_000 })).token));
  for (const [i, token] of tokens.entries()) {
    phones.push(
      new SimulatedPhone({
        baseUrl: nginx.url,
        token,
        name: `Phone ${i + 1}`,
        latencyMs: 20,
        concurrency: 10,
        failureRate: 0,
        deliveryRate: 1,
        deliveryDelayMs: 0,
        heartbeatIntervalMs: 0,
        reconnect: { minMs: 50, maxMs: 500 },
        onOutcome: (messageId) => sentTimes.set(messageId, (sentTimes.get(messageId) ?? 0) + 1),
      }),
    );
  }
  await Promise.all(phones.map((p) => p.start(30_000)));
}, 180_000);

afterAll(async () => {
  await Promise.allSettled(phones.map((p) => p.stop()));
  await nginx?.stop();
  await nodes?.stop();
  await app?.close();
  await cluster?.stop();
});

describe(`${API_NODES} API nodes and ${WORKERS} workers behind nginx`, () => {
  it('spreads the phones that connect through nginx over more than one node', async () => {
    await expect.poll(async () => sum(await phonesPerNode())).toBe(PHONES);
    const perNode = await phonesPerNode();
    expect(perNode.filter((n) => n > 0).length, `phones per node: ${perNode}`).toBeGreaterThan(1);
  });

  it("passes on each node's X-Request-Id and logs it beside the node that answered", async () => {
    const res = await fetch(`${nginx.url}/v1/messages?limit=1`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    await res.body?.cancel();
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^req_/);
    const ports = nodes.apis.map((n) => n.port).join('|');
    await expect.poll(() => nginx.accessLog()).toMatch(new RegExp(`"GET /v1/messages\\?limit=1 HTTP/1.1" 200 .* upstream=127\\.0\\.0\\.1:(${ports}) request_id=${requestId}`));
  });

  it('5,000 messages posted through nginx are each sent once, by one phone, and counted once in the nodes’ metrics', async () => {
    const ids = await sendThroughNginx(5000, 1);
    expect(new Set(ids).size).toBe(5000);
    await expectEachSentOnce();
    // Whichever node took a send or held a phone counted it: together, every message once.
    await expect.poll(() => summed('hafatra_messages_accepted_total')).toBe(5000);
    // nginx spread the sends too: more than one node took some.
    const acceptedPerNode = await Promise.all(nodes.apis.map(async (n) => sampleValue(await scrape(n), 'hafatra_messages_accepted_total')));
    expect(acceptedPerNode.filter((n) => n > 0).length, `accepted per node: ${acceptedPerNode}`).toBeGreaterThan(1);
    await expect.poll(() => summed('hafatra_message_status_changes_total', { status: 'sent' })).toBe(5000);
    await expect.poll(() => summed('hafatra_message_status_changes_total', { status: 'delivered' })).toBe(5000);
    // Two workers ran their sweeps and reconcilers the whole time (the API nodes run none).
    for (const worker of nodes.workers) expect(sampleValue(await scrape(worker), 'process_start_time_seconds')).toBeGreaterThan(0);
  }, 120_000);

  it('a node killed with kill -9 mid-run: its phones are back through nginx within seconds and no message is lost or sent twice', async () => {
    const [victim] = nodes.apis;
    const before = await scrape(victim!);
    expect(sampleValue(before, 'hafatra_phones_connected')).toBeGreaterThan(0);
    const ids = await sendThroughNginx(3000, 2);
    await expect.poll(() => ids.filter((id) => sentTimes.has(id)).length, { timeout: 30_000, interval: 20 }).toBeGreaterThan(300);
    await victim!.kill9();
    const killedAt = Date.now();
    const sentAtKill = ids.filter((id) => sentTimes.has(id)).length;
    expect(sentAtKill, 'the kill came before the phones were done').toBeLessThan(ids.length);
    await expect.poll(async () => phones.every((p) => p.connected) && sum(await phonesPerNode()) === PHONES, { timeout: RECONNECT_DEADLINE_MS, interval: 100 }).toBe(true);
    const reconnectedMs = Date.now() - killedAt;
    await expectEachSentOnce();
    // A claim the kill cut between Redis and Postgres waits for the interrupted-claims sweep
    // (CLAIM_RECOVERY_MS, 30 s): when there is one, that, not the reconnect, is this phase's time.
    console.log(`[many-nodes] kill -9 at ${sentAtKill}/${ids.length} sent; phones back on the other nodes after ${reconnectedMs} ms; all sent ${Date.now() - killedAt} ms after the kill`);
  }, 120_000);

  it('a Redis master killed mid-run: its replica takes over, and no message is lost, sent twice or left stuck', async () => {
    // The master of this organization's slot: its queues, claims and phones' state live there.
    const slot = calculateSlot(app.ctx.keys.org(orgId).orgQueue());
    const master = await cluster.masterOf(slot);
    const [replica] = await cluster.replicasOf(master);
    expect(replica, 'the master has a replica').toBeDefined();
    const ids = await sendThroughNginx(2000, 4);
    await expect.poll(() => ids.filter((id) => sentTimes.has(id)).length, { timeout: 30_000, interval: 20 }).toBeGreaterThan(200);
    await master.kill9();
    const killedAt = Date.now();
    const sentAtKill = ids.filter((id) => sentTimes.has(id)).length;
    await expect.poll(async () => (await cluster.masterOf(slot).catch(() => null))?.port, { timeout: 30_000, interval: 200 }).toBe(replica!.port);
    const promotedMs = Date.now() - killedAt;
    await expectEachSentOnce();
    console.log(`[many-nodes] Redis master killed at ${sentAtKill}/${ids.length} sent; replica promoted after ${promotedMs} ms; all sent ${Date.now() - killedAt} ms after the kill`);
  }, 120_000);

  it('a node given SIGTERM answers /readyz 503 draining while still serving, then its phones move to the other node', async () => {
    const draining = nodes.apis.filter(alive)[0]!;
    const others = nodes.apis.filter((n) => alive(n) && n !== draining);
    draining.sigterm();
    await expect
      .poll(async () => {
        const res = await fetch(`${draining.url}/readyz`);
        return { status: res.status, body: await res.json() };
      })
      .toEqual({ status: 503, body: { status: 'not_ready', reasons: ['draining'] } });
    // Still serving while it drains: a keyed read answered by this very node.
    const read = await fetch(`${draining.url}/v1/messages?limit=1`, { headers: { authorization: `Bearer ${key}` } });
    expect(read.status).toBe(200);
    await read.body?.cancel();
    // After the drain its sockets close with 1001 and the phones reconnect through nginx.
    await draining.exited;
    await expect
      .poll(async () => phones.every((p) => p.connected) && sum(await Promise.all(others.map(async (n) => sampleValue(await scrape(n), 'hafatra_phones_connected')))) === PHONES, {
        timeout: RECONNECT_DEADLINE_MS,
        interval: 100,
      })
      .toBe(true);
    // nginx skips the two nodes gone: sends through it still reach the phones, once each.
    await sendThroughNginx(500, 3);
    await expectEachSentOnce();
  }, 60_000);
});
