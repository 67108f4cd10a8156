import type { AppContext } from '../context/app-context.js';
import { errors } from '../errors/errors.js';
import { syncDeviceState } from '../dispatch-queue/device-state.js';
import { checkedSendWindows, deviceSendWindowsChanged } from './send-window-settings.js';
import { getDevice } from './device-view.js';
import { assignments } from './device-store.js';
import type { Device, UpdateDeviceBody } from './schemas.js';
import type { SendWindows } from '../send-windows/windows.js';
import { pushAppEvent } from './app-events.js';
import { selectReportedSims } from './sql/select-reported-sims.js';
import { updateDeviceColumns } from './sql/update-device-columns.js';

/** What PATCH may change, plus the pacing limits only the operator sets (CLI `device update`). */
export type DeviceChanges = UpdateDeviceBody & {
  /** Segments a minute per SIM; null: the configured default (HAFATRA_PACING_PER_MINUTE). */
  pacingPerMinute?: number | null;
  /** Segments a day per SIM (carrier limits); null: no cap. */
  simDailyCap?: number | null;
  /** The phone's own send windows, within its organization's (src/send-windows); null: none of its own. */
  sendWindows?: SendWindows | null;
};

const COLUMN_OF: Record<keyof DeviceChanges, string> = {
  name: 'name',
  draining: 'draining',
  outboundEnabled: 'outbound_enabled',
  defaultSimSubscriptionId: 'default_sim_subscription_id',
  pacingPerMinute: 'pacing_per_minute',
  simDailyCap: 'sim_daily_cap',
  sendWindows: 'send_windows',
};

/**
 * PATCH semantics: only the fields present change; `defaultSimSubscriptionId: null` clears the
 * default. A default SIM must be a card the phone reports (a phone that reported none yet is
 * given the benefit of the doubt, as a send naming a SIM is).
 */
export async function updateDevice(ctx: AppContext, orgId: string, deviceId: string, given: DeviceChanges): Promise<Device> {
  const body = given.sendWindows === undefined ? given : { ...given, sendWindows: checkedSendWindows(given.sendWindows, 'sendWindows') };
  const sim = body.defaultSimSubscriptionId;
  if (sim !== undefined && sim !== null) await assertReportedSim(ctx, orgId, deviceId, sim);
  const fields = (Object.keys(COLUMN_OF) as (keyof DeviceChanges)[]).filter((f) => body[f] !== undefined);
  if (fields.length > 0) {
    const set = assignments(
      fields.map((f) => [COLUMN_OF[f], body[f]]),
      3,
    );
    if (!(await updateDeviceColumns(ctx.db, orgId, deviceId, set))) throw errors.notFound('device');
    // Wider windows may let held messages go: the phone is woken as well.
    if (body.sendWindows !== undefined) await deviceSendWindowsChanged(ctx, orgId, deviceId);
    else await syncDeviceState(ctx, deviceId);
    // An SMS Gateway for Android phone caps its own sending by its pacing (GET /mobile/v1/settings).
    if (body.pacingPerMinute !== undefined) await pushAppEvent(ctx, { orgId, deviceId }, { event: 'SettingsUpdated' });
  }
  const device = await getDevice(ctx, orgId, deviceId);
  if (!device) throw errors.notFound('device');
  return device;
}

async function assertReportedSim(ctx: AppContext, orgId: string, deviceId: string, sim: number): Promise<void> {
  const sims = await selectReportedSims(ctx.db, orgId, deviceId);
  if (!sims) throw errors.notFound('device');
  if (sims.length > 0 && !sims.includes(sim)) {
    throw errors.invalid(`defaultSimSubscriptionId: the phone reports no SIM ${sim} (it reports ${sims.join(', ')})`);
  }
}
