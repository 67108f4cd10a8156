import type { AppContext } from '../context/app-context.js';
import { errors } from '../errors/errors.js';
import { syncDeviceState, syncOrgDeviceStates } from '../dispatch-queue/device-state.js';
import { normalizeSendWindows, sendWindowsProblem, SendWindowsSchema, type SendWindows } from '../send-windows/windows.js';
import { compileValidator } from '../schemas/validation.js';
import { updateOrgSendWindows } from '../send-windows/sql/update-org-send-windows.js';
import { parseSendWindowsText, SEND_WINDOW_EXAMPLE } from '../send-windows/text.js';

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

/**
 * `--send-window TEXT|none` of the CLI: undefined when not given; a text that does not read, or
 * a window the server would refuse, is an Error for `usage` to wrap (the CLI's UsageError).
 */
export function sendWindowsOption(value: unknown, usage: (message: string) => Error): SendWindows | null | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw usage(`--send-window takes one text, e.g. '${SEND_WINDOW_EXAMPLE}', or none`);
  let parsed: SendWindows | null;
  try {
    parsed = parseSendWindowsText(value);
  } catch (err) {
    throw usage(`--send-window: ${(err as Error).message}`);
  }
  if (parsed === null) return null;
  try {
    // What the API's schema checks (times, days), then what it cannot (the time zone).
    checkText.check(parsed, 'sendWindows');
  } catch (err) {
    // The validator names the field within the set (`ranges[0].from`).
    throw usage(`--send-window: sendWindows.${(err as Error).message}`);
  }
  const problem = sendWindowsProblem(parsed, 'sendWindows');
  if (problem) throw usage(`--send-window: ${problem}`);
  return normalizeSendWindows(parsed);
}

const checkText = compileValidator(SendWindowsSchema);

/** PUT /v1/send-windows and the CLI: the organization's windows, checked, stored, mirrored. */
export async function setOrgSendWindows(ctx: AppContext, orgId: string, given: SendWindows | null): Promise<SendWindows | null> {
  const windows = checkedSendWindows(given, 'sendWindows');
  if (!(await updateOrgSendWindows(ctx.db, orgId, windows))) throw errors.notFound('organization');
  await orgSendWindowsChanged(ctx, orgId);
  return windows;
}
