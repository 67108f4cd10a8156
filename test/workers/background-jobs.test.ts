import { afterAll, beforeAll, expect, it } from 'vitest';
import { closeContext, openContext } from '../../src/app/runtime.js';
import { redisReady } from '../../src/redis/connection.js';
import { startWorkers, type Workers } from '../../src/app/workers.js';
import type { AppContext } from '../../src/context/app-context.js';
import { insertTestDevice } from '../support/devices.js';
import { startTestApp, type TestApp } from '../support/harness.js';

/**
 * Each sweep of the worker is a job of its own: one that throws on every run (here the recovery
 * of interrupted claims, on a claiming set Redis holds as the wrong type) is logged and counted,
 * and the sweeps after it keep running.
 */
let app: TestApp;
let ctx: AppContext;
let workers: Workers;

beforeAll(async () => {
  app = await startTestApp({ sweepIntervalMs: 50, reconcileIntervalMs: 50 });
  ctx = openContext(app.ctx.config, 'worker');
  // Its connection fails fast until it is ready (on a cluster, until every shard is): the test
  // writes through it below.
  await redisReady(ctx.redis);
  workers = await startWorkers(ctx);
}, 60_000);

afterAll(async () => {
  await workers?.close();
  if (ctx) await closeContext(ctx);
  await app?.close();
});

const runs = async (job: string, outcome: 'ok' | 'error') => (await ctx.metrics.backgroundRuns.get()).values.find((v) => v.labels.job === job && v.labels.outcome === outcome)?.value ?? 0;

it('keeps running the other sweeps while one throws on every run, and counts both', async () => {
  const { org } = await app.createOrg();
  const claiming = ctx.keys.org(org.id).claiming();
  await ctx.redis.set(claiming, 'not a sorted set');
  await expect.poll(() => runs('recover-interrupted-claims', 'error'), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);

  // A phone left connected by an API process that is gone: the presence sweep, after the failing one, marks it offline.
  const deviceId = await insertTestDevice(app.ctx, org.id);
  await app.ctx.db.query(`UPDATE devices SET socket_connected = true, socket_process_id = 'process-gone' WHERE id = $1`, [deviceId]);
  const connected = async () => (await app.ctx.db.query('SELECT socket_connected FROM devices WHERE id = $1', [deviceId])).rows[0].socket_connected;
  await expect.poll(connected, { timeout: 20_000 }).toBe(false);
  expect(await runs('expire-presence', 'ok')).toBeGreaterThan(0);
  expect(await runs('expire-presence', 'error')).toBe(0);

  // Still tried on every tick: once the key is right again, its runs succeed.
  const errors = await runs('recover-interrupted-claims', 'error');
  await ctx.redis.del(claiming);
  const okBefore = await runs('recover-interrupted-claims', 'ok');
  await expect.poll(() => runs('recover-interrupted-claims', 'ok'), { timeout: 20_000 }).toBeGreaterThan(okBefore);
  expect(await runs('recover-interrupted-claims', 'error')).toBeLessThanOrEqual(errors + 1);
  const text = await ctx.metrics.registry.metrics();
  expect(text).toMatch(/hafatra_background_run_duration_seconds_count\{job="expire-presence"\} \d+/);
});
