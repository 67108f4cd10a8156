/**
 * The claim script's cost alone (lua/claimJobs): one organization's phones claiming in turn from
 * a queue of messages, against a redis-server of its own (append-only file on, as in production),
 * with carrier routing, off-net waits, SIM caps, urgent entries and send windows all in play.
 *
 *   npx tsx bench/claim-script.ts [--phones 20] [--jobs 20000] [--claims 2000] [--max 10] [--runs 5] [--url redis://…]
 *
 * Per run: Redis emptied, state and queues written anew, then `claims` claims one after another
 * on a clock that moves 40 ms a claim (the pacing window turns over). It prints Redis's own time
 * per EVALSHA (INFO commandstats: the script, not the round trip), the wall time per claim, and
 * a digest of what was claimed (ids, SIMs, reasons, retry times): two versions of the script that
 * decide alike print the same digest.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Infrastructure } from '../src/context/infrastructure.js';
import { writeDeviceState, type DeviceDispatchState } from '../src/devices/device-state.js';
import { claimScriptInput } from '../src/dispatch-queue/claim.js';
import { enqueue } from '../src/dispatch-queue/enqueue.js';
import { dispatchMeta, dispatchScore, type DispatchEntry } from '../src/dispatch-queue/entries.js';
import { findRedisServer } from '../src/launcher/redis-binary.js';
import { pickFreePort } from '../src/launcher/free-port.js';
import { startRedis } from '../src/launcher/redis-server.js';
import { serviceUserIfRoot } from '../src/launcher/service-user.js';
import { createRedis, type Redis } from '../src/redis/connection.js';
import { redisKeys } from '../src/redis/keys.js';
import { claimJobs } from '../src/redis/scripts/claim-jobs.js';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
}
const urlArg = process.argv.indexOf('--url');
const PHONES = option('phones', 20);
const JOBS = option('jobs', 20_000);
const CLAIMS = option('claims', 2_000);
const MAX = option('max', 10);
const RUNS = option('runs', 5);
const ORG = 'org_bench';
/** Tuesday 10:00 in Antananarivo: inside the organization's windows. */
const START = Date.UTC(2026, 10, 24, 7, 0, 0);
const STEP_MS = 40;

// Recipients on each network of the default table and abroad; phones with SIMs on two, one or none of them.
const RECIPIENT_PREFIXES = ['+26132', '+26133', '+26134', '+26137', '+26138', '+33612'];
const PHONE_SIMS: DeviceDispatchState['sims'][] = [
  [
    { subscriptionId: 1, carrierName: 'Orange MG' },
    { subscriptionId: 2, carrierName: 'YAS' },
  ],
  [{ subscriptionId: 1, carrierName: 'Airtel' }],
  [{ subscriptionId: 1, carrierName: 'Telma' }],
  [{ subscriptionId: 1, carrierName: null }],
];

function phoneState(i: number): DeviceDispatchState {
  return {
    id: `dev_${i}`,
    orgId: ORG,
    revoked: false,
    outboundEnabled: true,
    draining: false,
    // Every fifth phone paced tightly: some claims stop at the pace.
    pacingPerMinute: i % 5 === 4 ? 300 : 2_000,
    // Phones with two SIMs spend their day on one: on_net_sim_capped.
    simDailyCap: i % 4 === 0 ? 150 : null,
    defaultSimSubscriptionId: 1,
    batteryPercent: 80,
    batteryCharging: true,
    networkType: '4g',
    sims: PHONE_SIMS[i % PHONE_SIMS.length]!,
    carriers: null,
    orgSendWindows: { timeZone: 'Indian/Antananarivo', ranges: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '08:00', to: '20:00' }] },
    sendWindows: null,
  };
}

function entry(n: number): DispatchEntry {
  const pinned = n % 20 === 0 ? `dev_${n % PHONES}` : null;
  const to = `${RECIPIENT_PREFIXES[n % RECIPIENT_PREFIXES.length]}${String(1_000_000 + n).slice(-7)}`;
  const ignoreSendWindows = n % 50 === 7;
  return {
    id: `msg_${String(n).padStart(8, '0')}`,
    orgId: ORG,
    requestedDeviceId: pinned,
    score: dispatchScore(START - 600_000 + n * 10, n % 10 === 3 ? 1 : 0, ignoreSendWindows),
    meta: dispatchMeta(to, {
      body: 'Hafatra bench: your code is 482913.',
      segments: 1 + (n % 7 === 0 ? 1 : 0),
      simSubscriptionId: n % 25 === 0 ? 2 : null,
      requestedDeviceId: pinned,
      expiresAt: START + 86_400_000,
      ignoreSendWindows,
    }),
  };
}

async function usecPerEvalsha(redis: Redis): Promise<{ calls: number; usec: number }> {
  const info = (await redis.info('commandstats')) as string;
  const line = /cmdstat_evalsha:calls=(\d+),usec=(\d+)/.exec(info);
  return line ? { calls: Number(line[1]), usec: Number(line[2]) } : { calls: 0, usec: 0 };
}

/** CPU seconds Redis's main thread has spent (user and system): less swayed by other work on the machine than wall time. */
async function mainThreadCpu(redis: Redis): Promise<number> {
  const info = (await redis.info('cpu')) as string;
  const field = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? Number.NaN);
  return field('used_cpu_user_main_thread') + field('used_cpu_sys_main_thread');
}

async function run(redis: Redis): Promise<{ serverUs: number; cpuUs: number; wallUs: number; claimed: number; outcomes: Map<string, number>; digest: string }> {
  await redis.flushall();
  let now = START;
  const ctx = {
    redis,
    keys: redisKeys('bench'),
    config: { pacingPerMinute: 2_000, offNetWaitSeconds: 20 },
    clock: { now: () => now },
  } as unknown as Infrastructure;
  const tx = redis.multi();
  for (let i = 0; i < PHONES; i++) writeDeviceState(ctx, tx, phoneState(i));
  await tx.exec();
  for (let n = 0; n < JOBS; n += 1000)
    await enqueue(
      ctx,
      Array.from({ length: Math.min(1000, JOBS - n) }, (_, j) => entry(n + j)),
    );
  await redis.config('RESETSTAT');
  const hash = createHash('sha1');
  let claimed = 0;
  const outcomes = new Map<string, number>();
  const count = (what: string) => outcomes.set(what, (outcomes.get(what) ?? 0) + 1);
  const cpuBefore = await mainThreadCpu(redis);
  const started = performance.now();
  for (let c = 0; c < CLAIMS; c++) {
    now = START + c * STEP_MS;
    const [keys, args] = claimScriptInput(ctx, { orgId: ORG, deviceId: `dev_${c % PHONES}` }, MAX, now);
    const result = await claimJobs(redis, keys, args);
    if (result.kind === 'claimed') {
      claimed += result.claimed.length;
      for (const m of result.claimed) count(m.why);
      if (result.retryAfterMs > 0) count('retry later');
      hash.update(`${result.retryAfterMs};${result.claimed.map((m) => `${m.id}/${m.sim}/${m.why}`).join(',')}\n`);
    } else {
      count(result.kind);
      hash.update(`${JSON.stringify(result)}\n`);
    }
  }
  const wallUs = ((performance.now() - started) * 1000) / CLAIMS;
  const cpuUs = (((await mainThreadCpu(redis)) - cpuBefore) * 1e6) / CLAIMS;
  const stats = await usecPerEvalsha(redis);
  return { serverUs: stats.usec / Math.max(1, stats.calls), cpuUs, wallUs, claimed, outcomes, digest: hash.digest('hex').slice(0, 12) };
}

async function main(): Promise<void> {
  let url = urlArg >= 0 ? process.argv[urlArg + 1]! : undefined;
  let stop = async (): Promise<void> => {};
  if (!url) {
    const dataDir = await mkdtemp(join(tmpdir(), 'hafatra-claim-bench-'));
    const log = () => undefined;
    const server = await startRedis({ binary: await findRedisServer(undefined, log), dataDir, port: await pickFreePort(), runAs: await serviceUserIfRoot(log), log });
    url = server.url;
    stop = async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    };
  }
  const redis = createRedis(url, { name: 'claim-bench' });
  try {
    console.log(`phones ${PHONES}, jobs ${JOBS}, claims ${CLAIMS} of up to ${MAX}`);
    for (let r = 0; r < RUNS; r++) {
      const x = await run(redis);
      if (r === 0) console.log([...x.outcomes].map(([k, v]) => `${k} ${v}`).join(', '));
      console.log(`run ${r + 1}: ${x.serverUs.toFixed(1)} µs/claim in Redis (${x.cpuUs.toFixed(1)} µs of its CPU), ${x.wallUs.toFixed(1)} µs/claim wall, ${x.claimed} claimed, digest ${x.digest}`);
    }
  } finally {
    redis.disconnect();
    await stop();
  }
}

await main();
