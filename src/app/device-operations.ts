import type { AppContext } from '../context/app-context.js';
import type { DeviceOperations } from '../dispatch/frame-handlers.js';
import { heartbeatOperation } from '../dispatch/heartbeat-operation.js';
import { IncomingSmsBody } from '../incoming/schemas.js';
import { recordIncoming } from '../incoming/record-incoming.js';

/**
 * The phone operations that socket frames and the HTTP fallback share, by domain:
 * heartbeat (src/devices), incoming SMS (src/incoming).
 */
export function deviceOperations(ctx: AppContext): DeviceOperations {
  return {
    heartbeat: heartbeatOperation(ctx),
    incoming: { schema: IncomingSmsBody, handle: (principal, sms) => recordIncoming(ctx, principal, sms) },
  };
}
