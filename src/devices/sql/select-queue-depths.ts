import type { Queryable } from '../../db/pool.js';

/**
 * Messages assigned to each phone and not yet sent, counted exactly in Postgres for many devices
 * at once: those it holds (claimed, sending) and those pinned to it still waiting (queued). Each branch is served by its own partial index.
 */
export async function selectQueueDepths(db: Queryable, deviceIds: string[]): Promise<Map<string, number>> {
  const depths = new Map<string, number>(deviceIds.map((id) => [id, 0]));
  if (deviceIds.length === 0) return depths;
  const { rows } = await db.query<{ dev: string; n: number }>(
    `SELECT dev, count(*)::int AS n FROM (
       SELECT device_id AS dev FROM messages WHERE status IN ('claimed', 'sending') AND device_id = ANY($1)
       UNION ALL
       SELECT requested_device_id FROM messages WHERE status = 'queued' AND requested_device_id = ANY($1)
     ) assigned GROUP BY dev`,
    [deviceIds],
  );
  for (const r of rows) depths.set(r.dev, r.n);
  return depths;
}
