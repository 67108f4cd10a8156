import type { Queryable } from '../../db/pool.js';
import type { OptOutSetting } from '../settings.js';

export async function updateOptOutSettings(db: Queryable, orgId: string, s: OptOutSetting): Promise<void> {
  await db.query(
    `UPDATE organizations SET
       opt_out_stop_words = CASE WHEN $2 THEN $3::text[] ELSE opt_out_stop_words END,
       opt_out_start_words = CASE WHEN $4 THEN $5::text[] ELSE opt_out_start_words END,
       opt_out_reply = CASE WHEN $6 THEN $7 ELSE opt_out_reply END,
       opt_in_reply = CASE WHEN $8 THEN $9 ELSE opt_in_reply END,
       updated_at = now()
     WHERE id = $1`,
    [
      orgId,
      s.stopWords !== undefined,
      s.stopWords ?? null,
      s.startWords !== undefined,
      s.startWords ?? null,
      s.stopReply !== undefined,
      s.stopReply ?? null,
      s.startReply !== undefined,
      s.startReply ?? null,
    ],
  );
}
