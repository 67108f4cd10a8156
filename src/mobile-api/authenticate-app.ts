import type { AppContext } from '../context/app-context.js';
import type { DevicePrincipal } from '../auth/principal.js';
import { errors } from '../errors/errors.js';
import { deviceTokenHash } from '../devices/device-token.js';
import { versionOfLabel, type AppVersion } from './app-version.js';

/** A phone of the mobile API, as every call after registration sees it. */
export interface AppDevice extends DevicePrincipal {
  /** The app version it last registered or started with (from its User-Agent), if known. */
  version: AppVersion | null;
  /** It understands `Cancelling` and MessageCancelled, and confirms with `Cancelled` (v1.67.0+). */
  confirmsCancellation: boolean;
}

/** The headers a mobile call is authenticated with, copied out of the request. */
export interface AppHeaders {
  authorization?: string;
  userAgent?: string;
}

export const appUnauthorized = () => errors.unauthorized('missing, unknown or revoked device token; register the phone again with a new pairing code');

/** A busy phone does not rewrite its row on each call: last_seen_at moves at most this often. */
const SEEN_RESOLUTION_SECONDS = 10;

/**
 * `Authorization: Bearer <device token>` → the mobile phone it belongs to, or 401. Read from
 * Postgres on every call, as for native phones (src/devices/authenticate-device.ts): a revoke is
 * seen by the very next call on every process. A native phone's token is refused here: the two
 * protocols hand out jobs under different rules. The same statement marks the phone as seen,
 * which keeps it online while it calls.
 */
export async function authenticateAppDevice(ctx: AppContext, headers: AppHeaders): Promise<AppDevice> {
  const hash = deviceTokenHash(headers.authorization);
  if (!hash) throw appUnauthorized();
  const { rows } = await ctx.db.query(
    `WITH d AS (SELECT id, org_id, last_seen_at, app_version, confirms_cancellation FROM devices WHERE token_hash = $1 AND revoked_at IS NULL AND protocol = 'mobile'),
     seen AS (
       UPDATE devices SET last_seen_at = now() FROM d
       WHERE devices.id = d.id AND (d.last_seen_at IS NULL OR d.last_seen_at < now() - $2 * interval '1 second')
     )
     SELECT id, org_id AS "orgId", app_version AS "appVersion", confirms_cancellation AS "confirmsCancellation" FROM d`,
    [hash, SEEN_RESOLUTION_SECONDS],
  );
  const found = rows[0] as { id: string; orgId: string; appVersion: string | null; confirmsCancellation: boolean } | undefined;
  if (!found) throw appUnauthorized();
  return { kind: 'device', orgId: found.orgId, deviceId: found.id, version: versionOfLabel(found.appVersion), confirmsCancellation: found.confirmsCancellation };
}
