import { Type } from '@sinclair/typebox';
import type { AppContext } from '../context/app-context.js';
import { apiRoute, type AnyRoute } from '../http/router.js';
import { errors } from '../errors/errors.js';
import { Nullable, NullableDateTime } from '../schemas/schema-kit.js';
import { isOpenAt, nextChange, SendWindowsSchema, SendWindowsSetting, type SendWindows } from '../send-windows/windows.js';
import { selectOrgSendWindows } from '../send-windows/sql/org-send-windows.js';
import { selectDeviceSendWindows } from '../send-windows/sql/device-send-windows.js';
import { setOrgSendWindows } from '../devices/send-window-settings.js';
import { updateDevice } from '../devices/update-device.js';

const PutSendWindowsBody = Type.Object({ sendWindows: SendWindowsSetting }, { additionalProperties: false });

export const SendWindowsStateSchema = Type.Object({
  sendWindows: Nullable(SendWindowsSchema),
  /** Whether the organization's windows are open now (true when it has none). */
  openNow: Type.Boolean(),
  /** When they next open or close, within a week; null when they have none. */
  nextChangeAt: NullableDateTime,
});

export const DeviceSendWindowsSchema = Type.Object({
  /** The phone's own windows; null: its organization's alone. */
  sendWindows: Nullable(SendWindowsSchema),
  /** Whether the phone may send now: its organization's windows and its own both open. */
  openNow: Type.Boolean(),
});

/** The organization's send windows as the API answers them, with what they mean right now. */
function stateOf(w: SendWindows | null, now: number) {
  const next = nextChange(w, now);
  return { sendWindows: w, openNow: isOpenAt(w, now), nextChangeAt: next === null ? null : new Date(next).toISOString() };
}

/** A phone's own windows, and whether it may send now (its organization's windows and its own open). */
async function deviceStateOf(ctx: AppContext, orgId: string, deviceId: string) {
  const found = await selectDeviceSendWindows(ctx.db, orgId, deviceId);
  if (!found) throw errors.notFound('device');
  const now = ctx.clock.now();
  return { sendWindows: found.own, openNow: isOpenAt(found.org, now) && isOpenAt(found.own, now) };
}

/**
 * Beyond the spec (docs/decisions.md, "Send windows"): the organization's send windows (quiet
 * hours) for API clients. Under the devices scopes: a key that may switch a phone's sending off
 * or drain it may as well say when the phones send.
 */
export function sendWindowsRoutes(ctx: AppContext): AnyRoute[] {
  return [
    apiRoute({
      method: 'get',
      path: '/v1/send-windows',
      auth: { scope: 'devices:read' },
      summary: "The organization's send windows (quiet hours), whether they are open now and when that changes",
      responses: { 200: SendWindowsStateSchema },
      handler: async (req) => {
        const w = await selectOrgSendWindows(ctx.db, req.principal.orgId);
        if (w === undefined) throw errors.notFound('organization');
        return { status: 200, body: stateOf(w, ctx.clock.now()) };
      },
    }),
    apiRoute({
      method: 'put',
      path: '/v1/send-windows',
      auth: { scope: 'devices:write' },
      body: PutSendWindowsBody,
      audit: { action: 'organization.send_windows_updated' },
      summary: "Set the organization's send windows (null: send at any hour); messages outside them wait queued",
      responses: { 200: SendWindowsStateSchema },
      handler: async (req) => ({ status: 200, body: stateOf(await setOrgSendWindows(ctx, req.principal.orgId, req.body.sendWindows), ctx.clock.now()) }),
    }),
    apiRoute({
      method: 'get',
      path: '/v1/devices/:deviceId/send-windows',
      auth: { scope: 'devices:read' },
      summary: "A phone's own send windows, within its organization's, and whether it may send now",
      responses: { 200: DeviceSendWindowsSchema },
      handler: async (req) => ({ status: 200, body: await deviceStateOf(ctx, req.principal.orgId, req.params.deviceId!) }),
    }),
    apiRoute({
      method: 'put',
      path: '/v1/devices/:deviceId/send-windows',
      auth: { scope: 'devices:write' },
      body: PutSendWindowsBody,
      audit: { action: 'device.send_windows_updated', target: (req) => req.params.deviceId! },
      summary: "Set a phone's own send windows (null: its organization's alone); it sends only when both are open",
      responses: { 200: DeviceSendWindowsSchema },
      handler: async (req) => {
        await updateDevice(ctx, req.principal.orgId, req.params.deviceId!, { sendWindows: req.body.sendWindows });
        return { status: 200, body: await deviceStateOf(ctx, req.principal.orgId, req.params.deviceId!) };
      },
    }),
  ];
}
