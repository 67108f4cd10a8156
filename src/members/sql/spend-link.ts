import type { Queryable } from '../../db/pool.js';
import { type LinkRow, hashToken, TOKEN_SHAPE, LINK_COLUMNS } from '../links.js';

/** Spends a link: one conditional UPDATE, so of two accepts racing only one gets the row. */
export async function spendLink(db: Queryable, token: string): Promise<LinkRow | undefined> {
  if (!TOKEN_SHAPE.test(token)) return undefined;
  const { rows } = await db.query<LinkRow>(
    `WITH spent AS (
       UPDATE one_time_links SET used_at = now()
        WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now()
        RETURNING *)
     SELECT ${LINK_COLUMNS} FROM spent l LEFT JOIN organizations o ON o.id = l.org_id`,
    [hashToken(token)],
  );
  return rows[0];
}
