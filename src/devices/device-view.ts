import type { AppContext } from '../context/app-context.js';
import type { Config } from '../config/config.js';
import { iso } from '../schemas/schema-kit.js';
import { inboundCapability } from './inbound-capability.js';
import type { DeviceRow, SimRow } from './device-store.js';
import { selectDevices } from './sql/select-devices.js';
import { selectQueueDepths } from './sql/select-queue-depths.js';
import { selectSims } from './sql/select-sims.js';
import type { Device, DeviceStatus, SimCard } from './schemas.js';

/**
 * online: socket open, or seen within the window since its socket last closed; stale: seen
 * before the window, or its socket closed and nothing was heard since (a phone that left is not
 * online for five more minutes); never_seen; revoked. A phone without a socket (HTTP polling)
 * is online while it keeps calling.
 */
export function deviceStatus(row: DeviceRow, onlineWindowSeconds: number, now: number): DeviceStatus {
  if (row.revokedAt) return 'revoked';
  if (row.socketConnected) return 'online';
  if (!row.lastSeenAt) return 'never_seen';
  if (row.socketChangedAt && row.socketChangedAt.getTime() >= row.lastSeenAt.getTime()) return 'stale';
  return now - row.lastSeenAt.getTime() <= onlineWindowSeconds * 1000 ? 'online' : 'stale';
}

export function toSimCard(s: SimRow): SimCard {
  return {
    subscriptionId: s.subscriptionId,
    slotIndex: s.slotIndex,
    carrierName: s.carrierName,
    displayName: s.displayName,
    phoneNumber: s.phoneNumber,
    countryIso: s.countryIso,
    firstSeenAt: s.firstSeenAt.toISOString(),
    lastSeenAt: s.lastSeenAt.toISOString(),
    removedAt: iso(s.removedAt),
  };
}

/** The spec's Device: every field present, nullable ones as null. */
export function toDevice(row: DeviceRow, sims: SimRow[], queueDepth: number, config: Pick<Config, 'onlineWindowSeconds' | 'inboundFreshnessSeconds'>, now = Date.now()): Device {
  return {
    id: row.id,
    name: row.name,
    model: row.model,
    status: deviceStatus(row, config.onlineWindowSeconds, now),
    createdAt: row.createdAt.toISOString(),
    revokedAt: iso(row.revokedAt),
    revokedReason: row.revokedReason,
    lastSeenAt: iso(row.lastSeenAt),
    battery: { percent: row.batteryPercent, charging: row.batteryCharging },
    networkType: row.networkType,
    uptimeSeconds: row.uptimeSeconds,
    freeStorageBytes: row.freeStorageBytes,
    appVersion: row.appVersion,
    outboundEnabled: row.outboundEnabled,
    draining: row.draining,
    defaultSimSubscriptionId: row.defaultSimSubscriptionId,
    queueDepth,
    socket: { connected: row.socketConnected, lastChangedAt: iso(row.socketChangedAt) },
    inbound: inboundCapability(row, config.inboundFreshnessSeconds, now),
    sims: sims.map(toSimCard),
  };
}

/** Rows → Devices with their SIMs and queue depths: three queries however many devices. */
export async function viewDevices(ctx: AppContext, rows: DeviceRow[]): Promise<Device[]> {
  const ids = rows.map((r) => r.id);
  const [sims, depths] = await Promise.all([selectSims(ctx.db, ids), selectQueueDepths(ctx.db, ids)]);
  const now = Date.now();
  return rows.map((r) => toDevice(r, sims.get(r.id) ?? [], depths.get(r.id) ?? 0, ctx.config, now));
}

export async function listDevices(ctx: AppContext, orgId: string): Promise<Device[]> {
  return viewDevices(ctx, await selectDevices(ctx.db, orgId));
}

/** One device of the organization, or undefined (another organization's device is not found). */
export async function getDevice(ctx: AppContext, orgId: string, deviceId: string): Promise<Device | undefined> {
  const rows = await selectDevices(ctx.db, orgId, deviceId);
  return rows.length === 0 ? undefined : (await viewDevices(ctx, rows))[0];
}
