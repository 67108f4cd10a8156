import type { AppContext } from './context.js';
import type { ApiExtensions } from './api-server.js';
import type { DevicePrincipal } from '../auth/principal.js';
import { errors } from '../errors/errors.js';
import { attachDeviceSockets, type DeviceSockets } from '../dispatch/socket-server.js';
import { deviceOperations } from './device-operations.js';

/** Phone authentication (device tokens), until src/devices provides it: refuses every phone. */
let deviceAuthenticatorFor = (_ctx: AppContext) => async (_authorization: string | undefined): Promise<DevicePrincipal> => {
  throw errors.unauthorized('device access is not enabled');
};
let markSocketFor: ((ctx: AppContext) => (deviceId: string, connected: boolean) => Promise<void>) | undefined;

/** What the API process adds beyond the route table: phone authentication and sockets. */
export function apiExtensions(ctx: AppContext): ApiExtensions {
  const authenticate = deviceAuthenticatorFor(ctx);
  let sockets: DeviceSockets | undefined;
  return {
    deviceAuthenticator: authenticate,
    attach: (app) => {
      sockets = attachDeviceSockets(app, ctx, { authenticate, ops: deviceOperations(ctx), markSocket: markSocketFor?.(ctx) });
    },
    onClose: async () => {
      await sockets?.close();
    },
  };
}
