import type { AppContext } from '../context/app-context.js';
import { errors } from '../errors/errors.js';
import { syncDeviceState, syncOrgDeviceStates } from '../devices/device-state.js';
import { normalizeSendWindows, sendWindowsProblem, type SendWindows } from './windows.js';
import { updateOrgSendWindows } from './sql/update-org-send-windows.js';

/** A window set as given, checked (400 naming the field under `field`) and in its stored form. */
export function checkedSendWindows(w: SendWindows | null, field: string): SendWindows | null {
  if (w === null) return null;
  const problem = sendWindowsProblem(w, field);
  if (problem) throw errors.invalid(problem);
  return normalizeSendWindows(w);
}

/**
 * The organization's windows changed: every phone's dispatch state gets its open times anew, and
 * the phones are woken, since messages held for the night may now go.
 */
export async function orgSendWindowsChanged(ctx: AppContext, orgId: string): Promise<void> {
  await syncOrgDeviceStates(ctx, orgId);
  await ctx.dispatch.signalWork([{ orgId, requestedDeviceId: null }]);
}

/** A phone's own windows changed (its row already written): its state anew, and the phone woken. */
export async function deviceSendWindowsChanged(ctx: AppContext, orgId: string, deviceId: string): Promise<void> {
  await syncDeviceState(ctx, deviceId);
  await ctx.dispatch.signalWork([{ orgId, requestedDeviceId: deviceId }]);
}

/** PUT /v1/send-windows and the CLI: the organization's windows, checked, stored, mirrored. */
export async function setOrgSendWindows(ctx: AppContext, orgId: string, given: SendWindows | null): Promise<SendWindows | null> {
  const windows = checkedSendWindows(given, 'sendWindows');
  if (!(await updateOrgSendWindows(ctx.db, orgId, windows))) throw errors.notFound('organization');
  await orgSendWindowsChanged(ctx, orgId);
  return windows;
}
