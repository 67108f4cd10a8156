import type { Queryable } from '../../db/pool.js';

/** Of these messages, those still queued, each with the phone the send pinned it to (or null). */
export async function selectStillQueued(db: Queryable, ids: string[]): Promise<Map<string, string | null>> {
  const { rows } = await db.query<{ id: string; requestedDeviceId: string | null }>(
    `SELECT id, requested_device_id AS "requestedDeviceId" FROM messages WHERE id = ANY($1::text[]) AND status = 'queued'`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r.requestedDeviceId]));
}
