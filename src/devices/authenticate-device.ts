import type { AppContext } from '../context/app-context.js';
import type { DevicePrincipal } from '../auth/principal.js';
import { errors } from '../errors/errors.js';
import { deviceTokenHash } from './device-token.js';
import { selectDeviceByToken } from './sql/select-device-by-token.js';

export const deviceUnauthorized = () => errors.unauthorized('missing, unknown or revoked device token');

/**
 * Device token → principal, read from Postgres on every request. Phones are few (a handful per
 * organization) and call at most a few times a minute over HTTP (sockets authenticate once, on
 * upgrade), so one indexed lookup costs nothing, and reading the truth means a revoke is seen
 * on the very next request by every process with no cache to invalidate. The same statement
 * marks the phone as seen, at most every SEEN_RESOLUTION_SECONDS so a busy phone does not
 * rewrite its row on each call.
 */
const SEEN_RESOLUTION_SECONDS = 10;

export function deviceAuthenticator(ctx: AppContext) {
  return async function authenticateDevice(authorization: string | undefined): Promise<DevicePrincipal> {
    const hash = deviceTokenHash(authorization);
    if (!hash) throw deviceUnauthorized();
    const found = await selectDeviceByToken(ctx.db, hash, SEEN_RESOLUTION_SECONDS);
    if (!found) throw deviceUnauthorized();
    return { kind: 'device', orgId: found.orgId, deviceId: found.id };
  };
}
