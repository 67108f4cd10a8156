import type { AppContext } from '../context/app-context.js';
import type { DeviceOperation } from './frame-handlers.js';
import { recordHeartbeat } from '../devices/heartbeat.js';
import { HeartbeatBody, type Heartbeat } from '../devices/schemas.js';

/** The socket's `heartbeat` frame: same schema and service as POST /device/v1/heartbeat. */
export function heartbeatOperation(ctx: AppContext): DeviceOperation {
  return { schema: HeartbeatBody, handle: (principal, body: Heartbeat) => recordHeartbeat(ctx, principal, body) };
}
