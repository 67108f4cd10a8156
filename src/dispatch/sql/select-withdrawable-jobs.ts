import type { Queryable } from '../../db/pool.js';
import { MESSAGE_COLUMNS, type MessageRow } from '../../messages/message.js';

/** Up to `limit` of the phone's claimed messages (those named, or all) that the send did not pin to it. */
export async function selectWithdrawableJobs(db: Queryable, deviceId: string, ids: string[] | null, limit: number): Promise<MessageRow[]> {
  const { rows } = await db.query<MessageRow>(
    `SELECT ${MESSAGE_COLUMNS} FROM messages
     WHERE device_id = $1 AND status = 'claimed' AND requested_device_id IS NULL AND ($2::text[] IS NULL OR id = ANY($2::text[]))
     ORDER BY id LIMIT ${limit}`,
    [deviceId, ids],
  );
  return rows;
}
