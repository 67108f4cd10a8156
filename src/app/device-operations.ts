import type { AppContext } from './context.js';
import type { DeviceOperations } from '../dispatch/frame-handlers.js';

/**
 * The phone operations that socket frames and the HTTP fallback share, by domain:
 * heartbeat (src/devices), incoming SMS (src/incoming).
 */
export function deviceOperations(_ctx: AppContext): DeviceOperations {
  return {};
}
