import type { Queryable } from '../../db/pool.js';
import type { Job } from '../../dispatch-queue/job.js';

/**
 * selectClaimedJobs for many phones in one statement (the sockets opened in one event-loop turn):
 * result i holds phone i's jobs, at most 1,000 each, oldest first.
 */
export async function selectClaimedJobsOfDevices(db: Queryable, deviceIds: string[]): Promise<Job[][]> {
  const { rows } = await db.query<Omit<Job, 'expiresAt'> & { deviceId: string; expiresAt: Date }>(
    `SELECT d.id AS "deviceId", m.* FROM unnest($1::text[]) AS d(id) CROSS JOIN LATERAL (
       SELECT id AS "messageId", to_number AS "to", body, segments, sim_subscription_id AS "simSubscriptionId", expires_at AS "expiresAt"
       FROM messages WHERE device_id = d.id AND status = 'claimed' ORDER BY id LIMIT 1000) m`,
    [deviceIds],
  );
  const byDevice = new Map<string, Job[]>(deviceIds.map((id) => [id, []]));
  for (const { deviceId, expiresAt, ...job } of rows) byDevice.get(deviceId)!.push({ ...job, expiresAt: expiresAt.toISOString() });
  return deviceIds.map((id) => byDevice.get(id)!);
}
