import type { Queryable } from '../../db/pool.js';
import type { Job } from '../../dispatch-queue/job.js';

/** Jobs this phone claimed and has not reported on: sent again when its socket (re)connects. */
export async function selectClaimedJobs(db: Queryable, deviceId: string): Promise<Job[]> {
  const { rows } = await db.query<Omit<Job, 'expiresAt'> & { expiresAt: Date }>(
    `SELECT id AS "messageId", to_number AS "to", body, segments, sim_subscription_id AS "simSubscriptionId", expires_at AS "expiresAt"
     FROM messages WHERE device_id = $1 AND status = 'claimed' ORDER BY id LIMIT 1000`,
    [deviceId],
  );
  return rows.map((r) => ({ ...r, expiresAt: r.expiresAt.toISOString() }));
}
