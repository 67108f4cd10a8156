import type { AppContext } from './context.js';
import type { ApiExtensions } from './api-server.js';
import { deviceAuthenticator } from '../devices/authenticate-device.js';
import { markSocket } from '../devices/heartbeat.js';
import { attachDeviceSockets, type DeviceSockets } from '../dispatch/socket-server.js';
import { deviceOperations } from './device-operations.js';

const deviceAuthenticatorFor = deviceAuthenticator;
const markSocketFor = (ctx: AppContext) => async (deviceId: string, connected: boolean) => void (await markSocket(ctx, deviceId, connected));

/** What the API process adds beyond the route table: phone authentication and sockets. */
export function apiExtensions(ctx: AppContext): ApiExtensions {
  const authenticate = deviceAuthenticatorFor(ctx);
  let sockets: DeviceSockets | undefined;
  return {
    deviceAuthenticator: authenticate,
    attach: (app) => {
      sockets = attachDeviceSockets(app, ctx, { authenticate, ops: deviceOperations(ctx), markSocket: markSocketFor(ctx) });
    },
    onClose: async () => {
      await sockets?.close();
    },
  };
}
