import { Type } from '@sinclair/typebox';
import type { AppContext } from '../context/app-context.js';
import { apiRoute, type AnyRoute } from '../http/router.js';
import { errors } from '../errors/errors.js';
import { Nullable, NullableDateTime } from '../http/schema-kit.js';
import { isOpenAt, nextChange, SendWindowsSchema, SendWindowsSetting, type SendWindows } from './windows.js';
import { selectOrgSendWindows } from './sql/org-send-windows.js';
import { setOrgSendWindows } from './settings.js';

const PutSendWindowsBody = Type.Object({ sendWindows: SendWindowsSetting }, { additionalProperties: false });

export const SendWindowsStateSchema = Type.Object({
  sendWindows: Nullable(SendWindowsSchema),
  /** Whether the organization's windows are open now (true when it has none). */
  openNow: Type.Boolean(),
  /** When they next open or close, within a week; null when they have none. */
  nextChangeAt: NullableDateTime,
});

/** The organization's send windows as the API answers them, with what they mean right now. */
function stateOf(w: SendWindows | null, now: number) {
  const next = nextChange(w, now);
  return { sendWindows: w, openNow: isOpenAt(w, now), nextChangeAt: next === null ? null : new Date(next).toISOString() };
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
  ];
}
