import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { eventually } from '../support/phones.js';
import { monitorRedis } from '../support/redis-monitor.js';
import { loadLuaScripts } from '../../src/redis/scripts/lua-scripts.js';
import { claimJobs } from '../../src/redis/scripts/claim-jobs.js';
import { claimScriptInput } from '../../src/dispatch-queue/claim.js';
import { claimWriter, type ClaimWrite } from '../../src/dispatch-queue/claim-writer.js';
import { syncDeviceState } from '../../src/dispatch-queue/device-state.js';

// The claims one event-loop turn records in Postgres end in Redis together: one confirmation
// call per organization, not one per phone. Counted with MONITOR on the real Redis.
let app: TestApp;
let watcher: { close(): void };
const calls: string[][] = [];
const confirmLua = loadLuaScripts().get('confirmClaims')!.lua;
const confirmSha = createHash('sha1').update(confirmLua).digest('hex');
const isConfirmOf = (claimingKey: string) => (a: string[]) =>
  ((a[0]?.toLowerCase() === 'evalsha' && a[1] === confirmSha) || (a[0]?.toLowerCase() === 'eval' && a[1] === confirmLua)) && a[3] === claimingKey;

beforeAll(async () => {
  app = await startTestApp();
  watcher = await monitorRedis(app.ctx.config.redisUrl, (args) => calls.push(args));
});
afterAll(async () => {
  watcher.close();
  await app.close();
});

/** An organization with `phones` phones and `messages` queued messages, each phone holding its Redis half of a claim. */
async function claimedInRedis(phones: number, messages: number) {
  const { org, key } = await app.createOrg({ dailyLimit: 10_000 });
  const devices: string[] = [];
  for (let i = 0; i < phones; i++) {
    const deviceId = await insertTestDevice(app.ctx, org.id);
    await app.ctx.db.query('UPDATE devices SET pacing_per_minute = 100000 WHERE id = $1', [deviceId]);
    await syncDeviceState(app.ctx, deviceId);
    devices.push(deviceId);
  }
  const res = await app.request('POST', '/v1/messages', { key, body: { to: Array.from({ length: messages }, (_, i) => `+2613430${String(i).padStart(5, '0')}`), body: 'hello' } });
  expect(res.status).toBe(202);
  const writes: ClaimWrite[] = [];
  for (const deviceId of devices) {
    const r = await claimJobs(app.ctx.redis, ...claimScriptInput(app.ctx, { orgId: org.id, deviceId }, messages / phones, Date.now()));
    if (r.kind !== 'claimed') throw new Error(`claim: ${r.kind}`);
    writes.push({ orgId: org.id, deviceId, picked: r.claimed.map((c) => ({ id: c.id, sim: c.sim, why: c.why })) });
  }
  return { orgId: org.id, writes, claiming: app.ctx.keys.org(org.id).claiming(), meta: app.ctx.keys.org(org.id).queueMeta() };
}

it('ends the claims of one turn in Redis with one call per organization, and leaves a revoked phone’s claims to go back', async () => {
  const a = await claimedInRedis(3, 6);
  const b = await claimedInRedis(2, 4);
  const revokedId = b.writes[1]!.deviceId;
  await app.ctx.db.query('UPDATE devices SET revoked_at = now() WHERE id = $1', [revokedId]);
  const writer = claimWriter(app.ctx, app.ctx.changes);
  // One turn: every load before the batch is sent.
  const won = await Promise.all([...a.writes, ...b.writes].map((w) => writer.load(w)));
  expect(won.map((w) => (w === null ? null : w.size))).toEqual([2, 2, 2, 2, null]);

  const aIds = a.writes.flatMap((w) => w.picked.map((p) => p.id));
  await eventually(async () => (await app.ctx.redis.zcard(a.claiming)) === 0, 5000, 'the claims of the first organization confirmed');
  await eventually(async () => (await app.ctx.redis.zcard(b.claiming)) === 2, 5000, 'the live phone of the second confirmed');
  expect(await app.ctx.redis.hmget(a.meta, ...aIds)).toEqual(aIds.map(() => null));
  // The revoked phone's two stay in the claiming set: its caller puts them back on the queues.
  expect((await app.ctx.redis.zrange(b.claiming, '0', '-1')).sort()).toEqual(b.writes[1]!.picked.map((p) => p.id).sort());
  expect(calls.filter(isConfirmOf(a.claiming))).toHaveLength(1);
  expect(calls.filter(isConfirmOf(b.claiming))).toHaveLength(1);
});
