import { ChaosLog } from '../chaos/log.js';
import { reachTimes } from '../chaos/reach.js';
import { assignRoles } from '../chaos/roles.js';
import { firstJobLatency, postBacklog, postHigh } from '../chaos/posts.js';
import { FINAL_STATUSES, readMessages, type Withdrawal } from '../chaos/server-view.js';
import { bar, status } from '../lib/progress.js';
import { sleep, summarize } from '../lib/stats.js';
import { startFleet } from '../phones/fleet.js';
import type { Scenario } from './scenario.js';

/** Time "the radio" takes per SMS (a real one takes a second or more: the bench is shortened). */
const RADIO_MS = 20;
/**
 * Jobs a phone holds: a real app asks for few since it sends one at a time. With the default 100
 * the whole backlog would sit claimed on the phones and a high-priority message could only wait
 * behind a phone's 100; with 10 the backlog waits in the queues, where priority applies.
 */
const MAX_JOBS = 10;

const FULL = { orgs: 2, phonesPerOrg: 20, backlog: 8_000, high: 100 };
const QUICK = { orgs: 1, phonesPerOrg: 10, backlog: 600, high: 20 };
/**
 * The drain ends when every message had a final report, or when none had one for `stallMs`
 * (three times the local claim timeout: a withdrawal would have happened), or at `capMs`. A
 * remote deployment keeps production timers (60 s claim timeout, 60 s cool-down).
 */
const DRAIN = { local: { stallMs: 15_000, capMs: 180_000 }, remote: { stallMs: 150_000, capMs: 600_000 } };

/** Waits for every id's final report, within the drain bounds; false when it stopped short. */
async function drain(ids: string[], log: ChaosLog, bounds: { stallMs: number; capMs: number }): Promise<boolean> {
  const cap = Date.now() + bounds.capMs;
  let seen = -1;
  let progressAt = Date.now();
  while (log.finalAt.size < ids.length) {
    if (log.finalAt.size !== seen) [seen, progressAt] = [log.finalAt.size, Date.now()];
    if (Date.now() - progressAt > bounds.stallMs || Date.now() > cap) return false;
    status(`fleet-chaos: final ${bar(log.finalAt.size / ids.length)} ${log.finalAt.size}/${ids.length}`);
    await sleep(100);
  }
  return true;
}

export const fleetChaos: Scenario = {
  name: 'fleet-chaos',
  method:
    `${FULL.orgs} organizations × ${FULL.phonesPerOrg} phones (quick: ${QUICK.orgs} × ${QUICK.phonesPerOrg}) in the phone-fleet process, each strict about the protocol ` +
    `(one job at a time, handed to a ${RADIO_MS} ms "radio" only once its sending is acked; withdrawn or refused jobs dropped; maxJobs ${MAX_JOBS}). ` +
    'Per organization ~20% go silent a few seconds in (half close the socket, half keep it and answer nothing), ~10% fail half their sends (no_service), ' +
    "~10% hit Android's limit (limit_exceeded past 30 sends in 5 s). A backlog of normal messages, then high-priority ones one by one behind it; the run ends " +
    'when every message had a final report, or none had one for 15 s. Figures: delivered and final reports per second (first POST → last final report); messages handed to Android twice; ' +
    'messages not sent/delivered/failed/expired at the end (GET /v1/messages/{id}); for each withdrawal on a timeline, stuck (the later of the job reaching its phone and the phone stopping) ' +
    "→ another phone's jobs frame, and withdrawn → that frame; high-priority POST → its jobs frame.",
  async run({ target, settings }) {
    const size = settings.quick ? QUICK : FULL;
    const local = target.kind === 'local';
    const groups = await target.phoneGroups(size.orgs, size.phonesPerOrg);
    // Shortened like the local server's cool-down (60 s → 5 s, bench/target/local.ts); real on a deployment.
    const limitWindowMs = local ? 5_000 : 60_000;
    const timing = settings.quick ? { silentFirstMs: 500, silentStepMs: 500, limitParts: 30, limitWindowMs } : { silentFirstMs: 1_000, silentStepMs: 1_000, limitParts: 30, limitWindowMs };
    const roles = groups.flatMap((g) => assignRoles(g.phones.length, timing));
    const phones = groups.flatMap((g) => g.phones);
    const phoneOf = new Map(phones.map((p, i) => [p.deviceId, i]));
    const log = new ChaosLog();
    const f = await startFleet({ baseUrl: target.url, phones, mode: 'chaos', chaos: { roles, radioMs: RADIO_MS }, maxJobs: MAX_JOBS, onChaos: (b) => log.add(b), label: 'fleet-chaos' });
    try {
      if (f.connected === 0) throw new Error(`no phone connected: ${f.firstError}`);
      const backlog = await postBacklog(target.url, groups, size.backlog);
      const backlogIds = backlog.flatMap((s) => s.ids);
      const high = await postHigh(target.url, groups, size.high, backlogIds, log);
      const all = [...backlog, ...high.sent];
      const ids = all.flatMap((s) => s.ids);
      const drained = await drain(ids, log, local ? DRAIN.local : DRAIN.remote);
      status('');
      await sleep(200); // the fleet's last batch (it flushes every 50 ms)

      const keyOf = new Map(all.flatMap((s) => s.ids.map((id) => [id, s.key] as const)));
      const unfinished = ids.filter((id) => !log.finalAt.has(id));
      const views = await readMessages(target.url, (id) => keyOf.get(id)!, [...new Set([...unfinished, ...log.movedIds()])]);
      const stuck = unfinished.filter((id) => {
        const v = views.get(id);
        return typeof v === 'string' || !v || !FINAL_STATUSES.has(v.status);
      });
      const withdrawals: Withdrawal[] = [...views.values()].flatMap((v) => (typeof v === 'string' ? [] : v.withdrawals));
      const reach = reachTimes(withdrawals, log, phoneOf);
      const fromStuck = summarize(reach.fromStuck);
      const fromWithdrawal = summarize(reach.fromWithdrawal);
      const highLatency = summarize(firstJobLatency(high.sent, log));
      const normalLatency = summarize(firstJobLatency(backlog, log));
      const first = Math.min(...all.map((s) => s.postedAt));
      const last = log.finalAt.size > 0 ? Math.max(...log.finalAt.values()) : Number.NaN;
      const seconds = (last - first) / 1000;
      const sentTwice = log.sentTwice();
      const waitingAtLastHigh = high.backlogWaiting.at(-1) ?? 0;
      return {
        figures: [
          { key: 'fleet-chaos.deliveredPerSecond', label: 'messages delivered per second (first POST → last final report)', value: log.deliveredAt.size / seconds, unit: 'msg/s' },
          { key: 'fleet-chaos.finalPerSecond', label: 'messages to a final status (sent, delivered, failed) per second', value: log.finalAt.size / seconds, unit: 'msg/s' },
          { key: 'fleet-chaos.sentTwice', label: 'messages handed to Android by two phones (or twice)', value: sentTwice.length, unit: 'msg', goal: { op: '<=', value: 0 } },
          { key: 'fleet-chaos.stuck', label: 'messages not sent/delivered/failed/expired at the end', value: stuck.length, unit: 'msg', goal: { op: '<=', value: 0 } },
          { key: 'fleet-chaos.reach.p50', label: `stuck → another phone's jobs frame p50 (${fromStuck.count} withdrawals)`, value: fromStuck.p50, unit: 'ms' },
          { key: 'fleet-chaos.reach.p99', label: "stuck → another phone's jobs frame p99", value: fromStuck.p99, unit: 'ms' },
          ...(local
            ? [
                { key: 'fleet-chaos.requeue.p50', label: "withdrawn (timeline) → another phone's jobs frame p50", value: fromWithdrawal.p50, unit: 'ms' },
                { key: 'fleet-chaos.requeue.p99', label: "withdrawn (timeline) → another phone's jobs frame p99", value: fromWithdrawal.p99, unit: 'ms' },
              ]
            : []),
          { key: 'fleet-chaos.high.p50', label: `high priority POST → jobs frame p50 (${waitingAtLastHigh} normal still waiting at the last)`, value: highLatency.p50, unit: 'ms' },
          { key: 'fleet-chaos.high.p99', label: 'high priority POST → jobs frame p99', value: highLatency.p99, unit: 'ms' },
          { key: 'fleet-chaos.normal.p50', label: 'normal (backlog) POST → jobs frame p50, for comparison', value: normalLatency.p50, unit: 'ms' },
        ],
        details: {
          phones: f.connected,
          failedToConnect: f.failed,
          roles: Object.fromEntries(['healthy', 'silent-close', 'silent-mute', 'failing', 'limited'].map((r) => [r, roles.filter((x) => x.role === r).length])),
          radioMs: RADIO_MS,
          maxJobs: MAX_JOBS,
          messages: ids.length,
          drained,
          final: log.finalAt.size,
          delivered: log.deliveredAt.size,
          failed: log.failed.size,
          seconds,
          sentTwice: sentTwice.slice(0, 10),
          stuck: stuck.slice(0, 10).map((id) => ({ id, view: views.get(id) })),
          withdrawals: withdrawals.length,
          reachFromStuckByCode: Object.fromEntries(Object.entries(reach.byCode).map(([code, times]) => [code, summarize(times)])),
          withdrawnNotReached: reach.notReached.slice(0, 10),
          reachFromStuck: fromStuck,
          reachFromWithdrawal: local ? fromWithdrawal : 'not available: the timeline is on the deployment clock, the jobs frame on this one',
          high: { ...highLatency, backlogWaiting: high.backlogWaiting },
          normal: normalLatency,
          sendingRefused: log.refused,
          ackedAfterWithdrawn: log.ackedAfterWithdrawn.slice(0, 10),
          problems: f.problems,
        },
      };
    } finally {
      await f.stop();
    }
  },
};
