import type { AppContext } from '../context/app-context.js';
import type { ApiExtensions } from './api-server.js';
import { attachDeviceSockets, type DeviceSockets } from '../dispatch/socket-server.js';
import { deviceAuthenticator } from '../devices/authenticate-device.js';
import { socketStateWriter } from '../devices/heartbeat.js';
import { deviceOperations } from './device-operations.js';
import { attachLiveFeed, type LiveFeed } from '../live/live-feed.js';
import { attachMobileApi } from '../mobile-api/mobile-api.js';
import type { AppStreams } from '../mobile-api/event-streams.js';

/** What the API process adds beyond the route table: phone authentication and sockets, and the mobile API. */
export function apiExtensions(ctx: AppContext): ApiExtensions {
  const authenticate = deviceAuthenticator(ctx);
  let sockets: DeviceSockets | undefined;
  let live: LiveFeed | undefined;
  let streams: AppStreams | undefined;
  const markSocket = socketStateWriter(ctx);
  return {
    deviceAuthenticator: authenticate,
    attach: (app, accessLog) => {
      sockets = attachDeviceSockets(app, ctx, {
        authenticate,
        ops: deviceOperations(ctx),
        markSocket,
        alsoHeld: () => streams?.held() ?? [],
      });
      streams = attachMobileApi(app, ctx, { lease: sockets.lease, markSocket, accessLog });
      live = attachLiveFeed(app, ctx);
    },
    onClose: async () => {
      live?.close();
      // Before the sockets: their close ends the presence lease the streams share.
      await streams?.close();
      await sockets?.close();
    },
  };
}
