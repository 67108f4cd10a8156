import type { Queryable } from '../../db/pool.js';

export interface DevicePresenceCounts {
  online: number;
  stale: number;
  neverSeen: number;
  revoked: number;
}

/** As deviceStatus (src/devices/device-view.ts): a phone whose socket closed with nothing heard since is not online. */
const SEEN_SINCE_CLOSE = '(socket_changed_at IS NULL OR last_seen_at > socket_changed_at)';

/** The organization's phones by presence: online (socket open, or heard within the window since it closed), stale, never seen, revoked. */
export async function countDevicesByPresence(db: Queryable, orgId: string, onlineWindowSeconds: number): Promise<DevicePresenceCounts> {
  const { rows } = await db.query<DevicePresenceCounts>(
    `SELECT count(*) FILTER (WHERE revoked_at IS NOT NULL)::int AS revoked,
              count(*) FILTER (WHERE revoked_at IS NULL AND (socket_connected OR (${SEEN_SINCE_CLOSE} AND last_seen_at > now() - $2 * interval '1 second')))::int AS online,
              count(*) FILTER (WHERE revoked_at IS NULL AND NOT socket_connected AND (NOT ${SEEN_SINCE_CLOSE} OR last_seen_at <= now() - $2 * interval '1 second'))::int AS stale,
              count(*) FILTER (WHERE revoked_at IS NULL AND NOT socket_connected AND last_seen_at IS NULL)::int AS "neverSeen"
         FROM devices WHERE org_id = $1`,
    [orgId, onlineWindowSeconds],
  );
  return rows[0]!;
}
