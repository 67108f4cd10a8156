/**
 * The claim script's cost alone (lua/claimJobs): one organization's phones claiming in turn from
 * a queue of messages, against a redis-server of its own (append-only file on, as in production),
 * with carrier routing, off-net waits, SIM caps, urgent entries and send windows all in play.
 *
 *   npx tsx bench/claim-script.ts [--phones 20] [--jobs 20000] [--claims 2000] [--max 10] [--runs 5] [--url redis://…]
 *   npx tsx bench/claim-script.ts --against ../other-checkout [options]
 *
 * Per run: Redis emptied, state and queues written anew, then `claims` claims one after another
 * on a clock that moves 40 ms a claim (the pacing window turns over). It prints Redis's own time
 * per EVALSHA (INFO commandstats: the script, not the round trip), the CPU Redis spent, the wall
 * time per claim, and a digest of what was claimed (ids, SIMs, reasons, retry times): two
 * versions of the script that decide alike print the same digest.
 *
 * With --against, the other checkout's script (its state writer, claim input and typed claim
 * function, imported from its src/) claims the same queues of a second organization in the same
 * Redis, claim for claim in alternating order, each timed by SLOWLOG: the two meet the same
 * load from the rest of the machine, so a difference of a few microseconds shows.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Infrastructure } from '../src/infrastructure/infrastructure.js';
import { writeOrgDeviceStates, type DeviceDispatchState } from '../src/dispatch-queue/device-state.js';
import { claimScriptInput } from '../src/dispatch-queue/claim.js';
import { enqueue } from '../src/dispatch-queue/enqueue.js';
import { dispatchScore, type DispatchEntry } from '../src/dispatch-queue/entries.js';
import { dispatchMeta } from '../src/dispatch-queue/dispatch-meta.js';
import { findRedisServer } from '../src/launcher/redis-binary.js';
import { pickFreePort } from '../src/launcher/free-port.js';
import { startRedis } from '../src/launcher/redis-server.js';
import { serviceUserIfRoot } from '../src/launcher/service-user.js';
import { createRedis, type Redis } from '../src/redis/connection.js';
import { redisKeys } from '../src/redis/keys.js';
import { claimJobs, type ClaimJobsResult } from '../src/redis/scripts/claim-jobs.js';
import { defineScripts } from '../src/redis/scripts/lua-scripts.js';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
}
const urlArg = process.argv.indexOf('--url');
const againstArg = process.argv.indexOf('--against');
const PHONES = option('phones', 20);
const JOBS = option('jobs', 20_000);
const CLAIMS = option('claims', 2_000);
const MAX = option('max', 10);
const RUNS = option('runs', 5);
/**
 * `--fleet`: claims as the fleet scenario makes them (bench/scenarios/fleet.ts): phones paced far
 * out of the way (their pacing windows hold every part of the last minute), one SIM on no known
 * network, no send windows, recipients on one network and nothing pinned, urgent or SIM-requested,
 * the clock moving 4 ms a claim (2,500 messages a second in claims of 10).
 */
const FLEET = process.argv.includes('--fleet');
/** Tuesday 10:00 in Antananarivo: inside the organization's windows. */
const START = Date.UTC(2026, 10, 24, 7, 0, 0);
const STEP_MS = FLEET ? 4 : 40;

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

function phoneState(orgId: string, i: number): DeviceDispatchState {
  if (FLEET) return { ...busyPhoneState(orgId, i), pacingPerMinute: 1_000_000, simDailyCap: null, sims: [{ subscriptionId: 1, carrierName: null }], orgSendWindows: null };
  return busyPhoneState(orgId, i);
}

function busyPhoneState(orgId: string, i: number): DeviceDispatchState {
  return {
    id: `dev_${i}`,
    orgId,
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

function entry(orgId: string, n: number): DispatchEntry {
  if (FLEET) return fleetEntry(orgId, n);
  const pinned = n % 20 === 0 ? `dev_${n % PHONES}` : null;
  const to = `${RECIPIENT_PREFIXES[n % RECIPIENT_PREFIXES.length]}${String(1_000_000 + n).slice(-7)}`;
  const ignoreSendWindows = n % 50 === 7;
  return {
    id: `msg_${String(n).padStart(8, '0')}`,
    orgId,
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

function fleetEntry(orgId: string, n: number): DispatchEntry {
  return {
    id: `msg_${String(n).padStart(8, '0')}`,
    orgId,
    requestedDeviceId: null,
    score: dispatchScore(START - 600_000 + n, 0, false),
    meta: dispatchMeta(`+26134${String(1_000_000 + n).slice(-7)}`, {
      body: 'Hafatra bench: your code is 482913.',
      segments: 1,
      simSubscriptionId: null,
      requestedDeviceId: null,
      expiresAt: START + 86_400_000,
      ignoreSendWindows: false,
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

/** What a checkout offers the bench: its state writer, its claim's input, its typed claim function and its scripts. */
interface Version {
  /** Writes the states of phones of one organization. */
  writeStates(ctx: Infrastructure, states: DeviceDispatchState[]): Promise<void>;
  claimScriptInput: typeof claimScriptInput;
  claimJobs: typeof claimJobs;
  defineScripts: typeof defineScripts;
}

const writeStates = (ctx: Infrastructure, states: DeviceDispatchState[]) => writeOrgDeviceStates(ctx, states[0]!.orgId, states[0]!.carriers, states);
const THIS: Version = { writeStates, claimScriptInput, claimJobs, defineScripts };

type WriteDeviceState = (ctx: Infrastructure, tx: ReturnType<Redis['multi']>, s: DeviceDispatchState) => void;

/** Checkouts from before lua/writeDeviceStates-3.lua queued each phone's writes on a transaction. */
function writeStatesOf(state: { writeOrgDeviceStates?: typeof writeOrgDeviceStates; writeDeviceState?: WriteDeviceState }): Version['writeStates'] {
  const { writeOrgDeviceStates: writeOrg, writeDeviceState: writeOne } = state;
  if (writeOrg) return (ctx, states) => writeOrg(ctx, states[0]!.orgId, states[0]!.carriers, states);
  if (!writeOne) throw new Error('this checkout writes no device state the bench knows');
  return async (ctx, states) => {
    const tx = ctx.redis.multi();
    for (const s of states) writeOne(ctx, tx, s);
    await tx.exec();
  };
}

async function versionAt(dir: string): Promise<Version> {
  const at = (path: string) => import(join(resolve(dir), 'src', path));
  const [state, claim, script, lua] = await Promise.all([at('dispatch-queue/device-state.ts'), at('dispatch-queue/claim.ts'), at('redis/scripts/claim-jobs.ts'), at('redis/scripts/lua-scripts.ts')]);
  return { writeStates: writeStatesOf(state), claimScriptInput: claim.claimScriptInput, claimJobs: script.claimJobs, defineScripts: lua.defineScripts };
}

/** One organization's phones and queues, claimed by one version; a clock of its own. */
class Org {
  readonly digest = createHash('sha1');
  readonly outcomes = new Map<string, number>();
  claimed = 0;
  now = START;
  private readonly ctx: Infrastructure;

  constructor(
    redis: Redis,
    readonly id: string,
    private readonly version: Version,
  ) {
    this.ctx = { redis, keys: redisKeys('bench'), config: { pacingPerMinute: 2_000, offNetWaitSeconds: 20 }, clock: { now: () => this.now } } as unknown as Infrastructure;
  }

  async fill(): Promise<void> {
    await this.version.writeStates(
      this.ctx,
      Array.from({ length: PHONES }, (_, i) => phoneState(this.id, i)),
    );
    for (let n = 0; n < JOBS; n += 1000)
      await enqueue(
        this.ctx,
        Array.from({ length: Math.min(1000, JOBS - n) }, (_, j) => entry(this.id, n + j)),
      );
  }

  /** The c-th claim of the run. */
  async claim(c: number): Promise<void> {
    this.now = START + c * STEP_MS;
    const [keys, args] = this.version.claimScriptInput(this.ctx, { orgId: this.id, deviceId: `dev_${c % PHONES}` }, MAX, this.now);
    this.record(await this.version.claimJobs(this.ctx.redis, keys, args));
  }

  private record(result: ClaimJobsResult): void {
    const count = (what: string) => this.outcomes.set(what, (this.outcomes.get(what) ?? 0) + 1);
    if (result.kind === 'claimed') {
      this.claimed += result.claimed.length;
      for (const m of result.claimed) count(m.why);
      if (result.retryAfterMs > 0) count('retry later');
      this.digest.update(`${result.retryAfterMs};${result.claimed.map((m) => `${m.id}/${m.sim}/${m.why}`).join(',')}\n`);
    } else {
      count(result.kind);
      this.digest.update(`${JSON.stringify(result)}\n`);
    }
  }
}

async function run(redis: Redis, r: number): Promise<void> {
  await redis.flushall();
  const org = new Org(redis, 'org_a', THIS);
  await org.fill();
  await redis.config('RESETSTAT');
  const cpuBefore = await mainThreadCpu(redis);
  const started = performance.now();
  for (let c = 0; c < CLAIMS; c++) await org.claim(c);
  const wallUs = ((performance.now() - started) * 1000) / CLAIMS;
  const cpuUs = (((await mainThreadCpu(redis)) - cpuBefore) * 1e6) / CLAIMS;
  const stats = await usecPerEvalsha(redis);
  if (r === 0) console.log([...org.outcomes].map(([k, v]) => `${k} ${v}`).join(', '));
  console.log(
    `run ${r + 1}: ${(stats.usec / Math.max(1, stats.calls)).toFixed(1)} µs/claim in Redis (${cpuUs.toFixed(1)} µs of its CPU), ${wallUs.toFixed(1)} µs/claim wall, ${org.claimed} claimed, digest ${org.digest.digest('hex').slice(0, 12)}`,
  );
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? Number.NaN;

/** Each EVALSHA's time in Redis since the last call, by organization, oldest first (SLOWLOG logs every command at threshold 0). */
async function drainSlowlog(redis: Redis, into: Map<string, number[]>): Promise<void> {
  const entries = (await redis.slowlog('GET', -1)) as [number, number, number, string[]][];
  await redis.slowlog('RESET');
  for (const [, , us, args] of entries.reverse()) {
    if (args[0]?.toLowerCase() !== 'evalsha') continue;
    const org = /\{o:([^}]+)\}/.exec(args[3] ?? '')?.[1];
    if (org) into.get(org)?.push(us);
  }
}

async function runAgainst(redis: Redis, r: number, other: Version, otherDir: string): Promise<void> {
  await redis.flushall();
  // Which version gets which organization changes every run: neither keeps the keys that hash or sort better.
  const [mineId, theirsId] = r % 2 === 0 ? ['org_a', 'org_b'] : ['org_b', 'org_a'];
  const orgs = [new Org(redis, mineId, THIS), new Org(redis, theirsId, other)] as const;
  for (const org of orgs) await org.fill();
  const times = new Map<string, number[]>(orgs.map((o) => [o.id, []]));
  await redis.config('SET', 'slowlog-log-slower-than', '0');
  await redis.config('SET', 'slowlog-max-len', '100000');
  await redis.slowlog('RESET');
  for (let c = 0; c < CLAIMS; c++) {
    // Alternating which goes first: neither always finds Redis's caches warmed by the other.
    for (const org of c % 2 === 0 ? orgs : [...orgs].reverse()) await org.claim(c);
    if (c % 100 === 99) await drainSlowlog(redis, times);
  }
  await drainSlowlog(redis, times);
  await redis.config('SET', 'slowlog-log-slower-than', '10000');
  const [mine, theirs] = [times.get(mineId)!, times.get(theirsId)!];
  const diffs = mine.map((t, i) => t - (theirs[i] ?? Number.NaN)).sort((a, b) => a - b);
  const trim = Math.floor(diffs.length * 0.02);
  const [da, db] = orgs.map((o) => o.digest.digest('hex').slice(0, 12));
  console.log(
    `run ${r + 1}: this ${mean(mine).toFixed(1)} µs/claim in Redis (median ${median(mine)}), ${otherDir} ${mean(theirs).toFixed(1)} (median ${median(theirs)}); ` +
      `this less that, claim for claim: median ${median(diffs)} µs, mean of the middle 96% ${mean(diffs.slice(trim, diffs.length - trim)).toFixed(1)} µs; ` +
      `digests ${da === db ? `alike (${da})` : `differ (${da}, ${db})`}`,
  );
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
    const otherDir = againstArg >= 0 ? process.argv[againstArg + 1]! : undefined;
    const other = otherDir ? await versionAt(otherDir) : undefined;
    other?.defineScripts(redis);
    console.log(`phones ${PHONES}, jobs ${JOBS}, claims ${CLAIMS} of up to ${MAX}`);
    for (let r = 0; r < RUNS; r++) await (other ? runAgainst(redis, r, other, otherDir!) : run(redis, r));
  } finally {
    redis.disconnect();
    await stop();
  }
}

await main();
