import type { Queryable } from '../../db/pool.js';

/** Clean shutdown: the process's lease gone and its phones offline, in one statement. */
export async function releaseProcessLease(db: Queryable, processId: string): Promise<void> {
  await db.query(
    `WITH gone AS (DELETE FROM api_processes WHERE id = $1)
         UPDATE devices SET socket_connected = false, socket_changed_at = now() WHERE socket_process_id = $1 AND socket_connected`,
    [processId],
  );
}
