import type { Queryable } from '../../db/pool.js';
import { type LinkRow, LINK_COLUMNS } from '../links.js';

/** Open invitations of an organization, newest first. */
export async function openInvitations(db: Queryable, orgId: string): Promise<LinkRow[]> {
  const { rows } = await db.query<LinkRow>(
    `SELECT ${LINK_COLUMNS} FROM one_time_links l LEFT JOIN organizations o ON o.id = l.org_id
      WHERE l.org_id = $1 AND l.kind = 'invitation' AND l.used_at IS NULL AND l.revoked_at IS NULL AND l.expires_at > now()
      ORDER BY l.id DESC`,
    [orgId],
  );
  return rows;
}
