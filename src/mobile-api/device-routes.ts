import type { AppContext } from '../context/app-context.js';
import { inTransaction } from '../db/pool.js';
import { HafatraError } from '../errors/errors.js';
import { syncSims } from '../devices/sims.js';
import { syncDeviceState } from '../dispatch-queue/device-state.js';
import { appSimsToReported } from './app-sims.js';
import { confirmsCancellation, readAppVersion } from './app-version.js';
import { appUnauthorized, authenticateAppDevice } from './authenticate-app.js';
import { appJson, mobileRoute, noContent, type AnyMobileRoute } from './mobile-route.js';
import { printable, registerAppDevice } from './register.js';
import { PatchDeviceBody, RegisterBody } from './schemas.js';
import { updateAppDevice } from './sql/update-app-device.js';

/** POST, PATCH and GET /mobile/v1/device. */
export function deviceRoutes(ctx: AppContext): AnyMobileRoute[] {
  return [
    mobileRoute({
      method: 'post',
      path: '/device',
      auth: 'none',
      body: RegisterBody,
      clientAddress: true,
      handler: async (req) => appJson(201, await registerAppDevice(ctx, req.headers, req.body, req.clientAddress)),
    }),
    mobileRoute({
      method: 'patch',
      path: '/device',
      auth: 'device',
      body: PatchDeviceBody,
      handler: async (req) => {
        const device = req.device!;
        if (req.body.id !== device.deviceId) throw new HafatraError('forbidden', `id: ${JSON.stringify(req.body.id)} is not this device (${device.deviceId})`);
        const version = readAppVersion(req.headers.userAgent);
        const appVersion = version?.label ?? printable(req.headers.userAgent, 64) ?? null;
        const simsChanged = await inTransaction(ctx.db, async (tx) => {
          if (!(await updateAppDevice(tx, device.deviceId, appVersion, confirmsCancellation(version)))) throw appUnauthorized();
          return req.body.simCards !== undefined && (await syncSims(tx, device.deviceId, appSimsToReported(req.body.simCards)));
        });
        if (simsChanged) await syncDeviceState(ctx, device.deviceId);
        return noContent();
      },
    }),
    mobileRoute({
      method: 'get',
      path: '/device',
      auth: 'none',
      clientAddress: true,
      handler: async (req) => {
        // The app reads only externalIp, and may call without a token; a token given must be valid.
        const device = req.headers.authorization ? await authenticateAppDevice(ctx, req.headers) : null;
        return appJson(200, { externalIp: req.clientAddress, ...(device ? { device: { id: device.deviceId } } : {}) });
      },
    }),
  ];
}
