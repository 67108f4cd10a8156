import type { AppContext } from '../context/app-context.js';
import type { DevicePrincipal } from '../auth/principal.js';
import { errors } from '../errors/errors.js';
import { deviceTokenHash } from './device-token.js';

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
    const { rows } = await ctx.db.query(
      `WITH d AS (SELECT id, org_id, last_seen_at FROM devices WHERE token_hash = $1 AND revoked_at IS NULL),
       seen AS (
         UPDATE devices SET last_seen_at = now() FROM d
         WHERE devices.id = d.id AND (d.last_seen_at IS NULL OR d.last_seen_at < now() - $2 * interval '1 second')
       )
       SELECT id, org_id AS "orgId" FROM d`,
      [hash, SEEN_RESOLUTION_SECONDS],
    );
    const found = rows[0] as { id: string; orgId: string } | undefined;
    if (!found) throw deviceUnauthorized();
    return { kind: 'device', orgId: found.orgId, deviceId: found.id };
  };
}
