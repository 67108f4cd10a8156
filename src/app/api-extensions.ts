import type { AppContext } from '../context/app-context.js';
import type { ApiExtensions } from './api-server.js';
import { attachDeviceSockets, type DeviceSockets } from '../dispatch/socket-server.js';
import { deviceAuthenticator } from '../devices/authenticate-device.js';
import { socketStateWriter } from '../devices/heartbeat.js';
import { deviceOperations } from './device-operations.js';
import { attachLiveFeed, type LiveFeed } from '../live/live-feed.js';

/** What the API process adds beyond the route table: phone authentication and sockets. */
export function apiExtensions(ctx: AppContext): ApiExtensions {
  const authenticate = deviceAuthenticator(ctx);
  let sockets: DeviceSockets | undefined;
  let live: LiveFeed | undefined;
  return {
    deviceAuthenticator: authenticate,
    attach: (app) => {
      sockets = attachDeviceSockets(app, ctx, {
        authenticate,
        ops: deviceOperations(ctx),
        markSocket: socketStateWriter(ctx),
      });
      live = attachLiveFeed(app, ctx);
    },
    onClose: async () => {
      live?.close();
      await sockets?.close();
    },
  };
}
