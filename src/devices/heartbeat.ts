import { TickBatcher } from '../batching/tick-batcher.js';
import { roundsByKey } from '../batching/rounds.js';
import type { AppContext } from '../context/app-context.js';
import type { DevicePrincipal } from '../auth/principal.js';
import { inTransaction } from '../db/pool.js';
import { deviceUnauthorized } from './authenticate-device.js';
import { inboundCapability, type InboundCapability } from './inbound-capability.js';
import { syncSims } from './sims.js';
import { trustedTime, type ClockSkewWarning } from '../time/phone-clock.js';
import type { Heartbeat } from './schemas.js';
import { isResting, syncDeviceState } from '../dispatch-queue/device-state.js';
import { markSocketRows, type SocketMark } from './sql/mark-socket-rows.js';
import { updateReportedConditions, type ReportedColumn } from './sql/update-reported-conditions.js';
import { writeReportedCondition, type ConditionWrite } from './reported-condition-writes.js';
import { swapResting } from './resting-writes.js';

/**
 * Mirrors the phone's condition into its dispatch state, and wakes it when it may take jobs again.
 * A state hash Redis lost gets only this field; the claim script then finds it incomplete and
 * loads the whole state from Postgres. Answers whether it changed: whether the phone is sending
 * decides whether off-net messages wait for it (device-state.ts netPhones).
 */
async function updateResting(ctx: AppContext, principal: DevicePrincipal, resting: boolean): Promise<boolean> {
  const was = await swapResting(ctx, principal, resting);
  if (was === '1' && !resting) await ctx.dispatch.signalWork([{ orgId: principal.orgId, requestedDeviceId: principal.deviceId }]);
  return was !== (resting ? '1' : '0');
}

export interface HeartbeatResult {
  serverTime: string;
  inbound: InboundCapability;
  warning?: ClockSkewWarning;
}

/**
 * A heartbeat (HTTP or socket frame) updates every reported Device field, the SIM list and
 * last_seen_at in one transaction (one statement when it names no SIMs). An omitted field keeps
 * its value; null clears it.
 */
export async function recordHeartbeat(ctx: AppContext, principal: DevicePrincipal, hb: Heartbeat): Promise<HeartbeatResult> {
  const now = Date.now();
  // sentAt only tells whether the phone's clock is right: every time stored is the server's.
  const { warning } = trustedTime(hb.sentAt, new Date(now));
  const write = conditionWrite(principal.deviceId, hb);
  // Without SIMs the heartbeat is one statement, atomic by itself (shared with the other
  // heartbeats of the turn): no transaction's BEGIN and COMMIT round trips for the
  // every-30-seconds heartbeat of each phone.
  const sims = hb.sims;
  const row =
    sims === undefined
      ? await writeReportedCondition(ctx, write).then((condition) => condition && { ...condition, simsChanged: false })
      : await inTransaction(ctx.db, async (tx) => {
          const condition = (await updateReportedConditions(tx, write.columns, write.defaultSmsAppReported, [write])).get(principal.deviceId);
          return condition && { ...condition, simsChanged: await syncSims(tx, principal.deviceId, sims) };
        });
  if (!row) throw deviceUnauthorized();
  const restingChanged = (hb.battery !== undefined || hb.networkType !== undefined) && (await updateResting(ctx, principal, isResting(row)));
  // Which SIM is on which network, and which phones are sending, steer the claim script's choice.
  if (row.simsChanged || restingChanged) await syncDeviceState(ctx, principal.deviceId);
  return {
    serverTime: new Date(now).toISOString(),
    inbound: inboundCapability(row, ctx.config.inboundFreshnessSeconds, now),
    ...(warning ? { warning } : {}),
  };
}

/** The Device columns a heartbeat reported, with their values in the same order. */
function conditionWrite(deviceId: string, hb: Heartbeat): ConditionWrite {
  const changes: [ReportedColumn, unknown][] = [];
  if (hb.battery !== undefined) changes.push(['battery_percent', hb.battery.percent], ['battery_charging', hb.battery.charging]);
  if (hb.networkType !== undefined) changes.push(['network_type', hb.networkType]);
  if (hb.uptimeSeconds !== undefined) changes.push(['uptime_seconds', hb.uptimeSeconds]);
  if (hb.freeStorageBytes !== undefined) changes.push(['free_storage_bytes', hb.freeStorageBytes]);
  if (hb.appVersion !== undefined) changes.push(['app_version', hb.appVersion]);
  if (hb.defaultSmsApp !== undefined) changes.push(['default_sms_app', hb.defaultSmsApp]);
  return { deviceId, columns: changes.map(([column]) => column), values: changes.map(([, value]) => value), defaultSmsAppReported: hb.defaultSmsApp !== undefined };
}

/**
 * The socket server calls this on open (connected: true; returns the new generation) and on
 * close (connected: false, with the generation its open returned). A close is ignored when a
 * newer socket of the same phone opened meanwhile, possibly on another process. Returns the
 * generation after the change, or null when nothing changed (a newer socket, an unknown or
 * revoked device).
 */
export async function markSocket(ctx: AppContext, deviceId: string, connected: boolean, generation?: number, processId?: string): Promise<number | null> {
  return (await markSockets(ctx, [{ deviceId, connected, generation, processId }]))[0]!;
}

/**
 * markSocket for many phones in one statement per round (a phone marked twice goes into a later
 * round, in order). The rows are locked in id order first, as claims lock them, so a batch and a
 * claim never deadlock.
 */
export async function markSockets(ctx: AppContext, marks: SocketMark[]): Promise<(number | null)[]> {
  const results: (number | null)[] = marks.map(() => null);
  for (const round of roundsByKey(marks, (m) => m.deviceId)) {
    const items = round.map((i) => marks[i]!);
    const byId = await markSocketRows(ctx.db, items);
    for (const i of round) results[i] = byId.get(marks[i]!.deviceId) ?? null;
  }
  return results;
}

/**
 * The socket server's writer: the opens and closes of one event-loop turn in one statement, one
 * batch at a time so a phone's open and close apply in order. 10,000 phones reconnecting (or a
 * process closing their sockets) cost a few dozen statements, not 10,000.
 */
export function socketStateWriter(ctx: AppContext): (deviceId: string, connected: boolean, generation?: number, processId?: string) => Promise<number | null> {
  const batches = new TickBatcher<SocketMark, number | null>((marks) => markSockets(ctx, marks), 1000, 1);
  return (deviceId, connected, generation, processId) => batches.load({ deviceId, connected, generation, processId });
}
