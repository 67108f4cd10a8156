import type { Queryable } from '../../db/pool.js';
import { type LinkRow, hashToken, TOKEN_SHAPE, LINK_COLUMNS } from '../links.js';

/** An open link (unused, not revoked, not expired), or none. */
export async function findOpenLink(db: Queryable, token: string): Promise<LinkRow | undefined> {
  if (!TOKEN_SHAPE.test(token)) return undefined;
  const { rows } = await db.query<LinkRow>(
    `SELECT ${LINK_COLUMNS} FROM one_time_links l LEFT JOIN organizations o ON o.id = l.org_id
      WHERE l.token_hash = $1 AND l.used_at IS NULL AND l.revoked_at IS NULL AND l.expires_at > now()`,
    [hashToken(token)],
  );
  return rows[0];
}
