import type { Queryable } from '../../db/pool.js';
import type { OptOutSettings } from '../settings.js';

export async function selectOptOutSettings(db: Queryable, orgId: string): Promise<OptOutSettings | undefined> {
  const { rows } = await db.query<OptOutSettings>(
    `SELECT id AS "orgId", default_country AS "defaultCountry", opt_out_stop_words AS "stopWords", opt_out_start_words AS "startWords",
       opt_out_reply AS "stopReply", opt_in_reply AS "startReply"
     FROM organizations WHERE id = $1`,
    [orgId],
  );
  return rows[0];
}
