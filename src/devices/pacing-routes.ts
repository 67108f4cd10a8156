import { Type } from '@sinclair/typebox';
import type { AppContext } from '../context/app-context.js';
import { memberRoute, type AnyRoute } from '../http/router.js';
import { errors } from '../errors/errors.js';
import { Int } from '../schemas/schema-kit.js';
import { recordAudit } from '../audit/record-audit.js';
import { updateDevice } from './update-device.js';
import { selectDevicePacing } from './sql/select-device-pacing.js';

const PacingBody = Type.Object(
  {
    pacingPerMinute: Type.Optional(Type.Union([Int('integer', { minimum: 1, maximum: 10_000 }), Type.Null()], { errorMessage: 'must be an integer from 1 to 10000, or null' })),
    simDailyCap: Type.Optional(Type.Union([Int('integer', { minimum: 1, maximum: 1_000_000 }), Type.Null()], { errorMessage: 'must be an integer from 1 to 1000000, or null' })),
  },
  { additionalProperties: false },
);

export async function pacingOf(ctx: AppContext, orgId: string, deviceId: string) {
  const row = await selectDevicePacing(ctx.db, orgId, deviceId);
  if (!row) throw errors.notFound('device');
  return { ...row, defaultPacingPerMinute: ctx.config.pacingPerMinute };
}

/**
 * A phone's sending pace (segments a minute per SIM) and daily cap per SIM: not part of the
 * public Device, set by the operator (CLI `device update`) or an admin in the dashboard.
 */
export function pacingRoutes(ctx: AppContext): AnyRoute[] {
  return [
    memberRoute({
      method: 'get',
      path: '/dashboard/v1/devices/:deviceId/pacing',
      auth: { role: 'viewer' },
      summary: "A phone's pacing and daily cap per SIM (null: the default, no cap)",
      handler: async (req) => ({ status: 200, body: await pacingOf(ctx, req.principal.orgId, req.params.deviceId!) }),
    }),
    memberRoute({
      method: 'patch',
      path: '/dashboard/v1/devices/:deviceId/pacing',
      auth: { role: 'admin' },
      body: PacingBody,
      clientAddress: true,
      summary: "Change a phone's pacing or daily cap per SIM",
      handler: async (req) => {
        await updateDevice(ctx, req.principal.orgId, req.params.deviceId!, req.body);
        await recordAudit(ctx.db, req.principal, req.clientAddress, { action: 'device.pacing_changed', target: req.params.deviceId, detail: { ...req.body } });
        return { status: 200, body: await pacingOf(ctx, req.principal.orgId, req.params.deviceId!) };
      },
    }),
  ];
}
