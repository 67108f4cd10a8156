import calculateSlot from 'cluster-key-slot';
import { Redis as SingleRedis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWorkers, type Workers } from '../../src/app/workers.js';
import { checkEvictionPolicy } from '../../src/redis/eviction-policy.js';
import type { RedisCluster } from '../../src/launcher/redis-cluster.js';
import type { Job } from '../../src/phone/protocol.js';
import { startTestRedisCluster } from '../support/redis-cluster.js';
import { eventually, pairTestPhone, sendMessages, startPhoneTestApp, type PhoneTestApp, type TestPhone } from '../support/phones.js';

/**
 * A Redis Cluster of its own (this file kills one of its masters): three masters with a replica
 * each, a master declared failed after a second of silence.
 */
let cluster: RedisCluster;
let app: PhoneTestApp;
let workers: Workers;

beforeAll(async () => {
  cluster = await startTestRedisCluster({ nodeTimeoutMs: 1_000 });
  app = await startPhoneTestApp({ redisUrl: cluster.url, reconcileIntervalMs: 200 });
  workers = await startWorkers(app.ctx);
}, 60_000);

afterAll(async () => {
  await workers?.close();
  await app?.close();
  await cluster?.stop();
});

it('checks the eviction policy of every master: one that evicts is warned about', async () => {
  const warnings: string[] = [];
  const log = { warn: (_: object, msg: string) => void warnings.push(msg), info: () => undefined } as unknown as Parameters<typeof checkEvictionPolicy>[1];
  expect(await checkEvictionPolicy(app.ctx.redis, log)).toBe('noeviction');
  const master = await cluster.masterOf(16_000);
  const direct = new SingleRedis({ host: '127.0.0.1', port: master.port });
  try {
    await direct.config('SET', 'maxmemory-policy', 'allkeys-lru');
    expect(await checkEvictionPolicy(app.ctx.redis, log)).toBe('evicts');
    expect(warnings).toEqual([expect.stringMatching(/allkeys-lru, not noeviction/)]);
  } finally {
    await direct.config('SET', 'maxmemory-policy', 'noeviction');
    direct.disconnect();
  }
});

it('loses nothing when a master dies with writes its replica never got: the queues are rebuilt from Postgres, each message sent once', async () => {
  const { org, key } = await app.createOrg({ dailyLimit: 100_000 });
  const sentBy = new Map<string, string>();
  const twice: string[] = [];
  const phones: TestPhone[] = [];
  for (let i = 0; i < 4; i++) {
    let onJobs: (jobs: Job[]) => void = () => undefined;
    const phone = await pairTestPhone(app, org.id, { pacingPerMinute: 100_000, client: { onJobs: (jobs) => onJobs(jobs) } });
    onJobs = (jobs) => {
      for (const job of jobs) {
        if (sentBy.has(job.messageId)) twice.push(job.messageId);
        sentBy.set(job.messageId, phone.deviceId);
        void (async () => {
          await phone.client.reportStatus({ messageId: job.messageId, status: 'sending' });
          await phone.client.reportStatus({ messageId: job.messageId, status: 'sent' });
        })().catch(() => undefined); // a report the failover refused is sent again by the phone's own retry
      }
    };
    phones.push(phone);
  }

  // Queued while no phone is connected: on the organization's master and, replicated, its replica.
  const before = await sendMessages(app, key, 300);
  const slot = calculateSlot(app.ctx.keys.org(org.id).orgQueue());
  const master = await cluster.masterOf(slot);
  const [replica] = await cluster.replicasOf(master);
  expect(replica).toBeDefined();

  // The replica stops taking the master's writes: these 300 reach Postgres and the master only.
  // Frozen, it could still read them from its socket after a thaw: the master also drops the
  // link, as a network cut would, and the frozen replica cannot connect again.
  await replica!.freeze();
  const direct = new SingleRedis({ host: '127.0.0.1', port: master.port });
  await direct.call('CLIENT', 'KILL', 'TYPE', 'replica');
  const lagged = await sendMessages(app, key, 300);
  // Queued on the master, and the batch marked dispatched: the batch reconciler will not queue it again.
  const k = app.ctx.keys.org(org.id);
  await eventually(async () => (await direct.zscore(k.orgQueue(), lagged.at(-1)!)) !== null, 10_000, 'the batch on the master');
  await eventually(
    async () => (await app.ctx.db.query('SELECT 1 FROM batches b JOIN messages m ON m.batch_id = b.id WHERE m.id = $1 AND b.dispatched_at IS NOT NULL', [lagged[0]])).rowCount === 1,
    10_000,
    'the batch marked dispatched',
  );
  direct.disconnect();
  await master.kill9();
  await replica!.thaw();
  await eventually(async () => (await cluster.masterOf(slot).catch(() => null))?.port === replica!.port, 30_000, 'the replica promoted');

  // The promoted replica has the first 300 (the others it never got: with the worker's shard
  // watch turned off, they stay unsent and this test fails).
  expect(await app.ctx.redis.zscore(k.orgQueue(), before[0]!)).not.toBeNull();
  for (const phone of phones) await phone.client.connect();
  const all = [...before, ...lagged];
  await eventually(
    async () => {
      const { rows } = await app.ctx.db.query(`SELECT count(*)::int AS n FROM messages WHERE id = ANY($1) AND status = 'sent'`, [all]);
      return rows[0].n === all.length;
    },
    60_000,
    'every message sent',
  );
  expect(twice).toEqual([]);
  expect(new Set([...sentBy.keys()])).toEqual(new Set(all));
  for (const phone of phones) await phone.client.close();
}, 120_000);
