import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/pool.js';
import { newId } from '../ids/ids.js';
import type { Role } from '../auth/principal.js';

export type LinkKind = 'setup' | 'invitation' | 'reset';

/** How long each kind of one-time link can be used (docs/dashboard-api.md). */
export const LINK_LIFETIME_HOURS: Record<LinkKind, number> = { setup: 24, invitation: 24 * 7, reset: 1 };

export interface LinkRow {
  id: string;
  kind: LinkKind;
  orgId: string | null;
  orgName: string | null;
  email: string | null;
  role: Role | null;
  memberId: string | null;
  /** The member who made it; none when the server's operator did (the CLI, the first start). */
  createdBy: string | null;
  createdAt: Date;
  expiresAt: Date;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest();
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The address members open: the token rides in the fragment, which no server or proxy sees. */
export const linkUrl = (baseUrl: string, token: string) => `${baseUrl}/link#${token}`;

export async function createLink(
  db: Queryable,
  l: { kind: LinkKind; orgId: string; email?: string | null; role?: Role | null; memberId?: string | null; createdBy?: string | null },
): Promise<{ id: string; token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const id = newId('oneTimeLink');
  const { rows } = await db.query(
    `INSERT INTO one_time_links (token_hash, id, kind, org_id, email, role, member_id, created_by, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + $9 * interval '1 hour') RETURNING expires_at AS "expiresAt"`,
    [hashToken(token), id, l.kind, l.orgId, l.email ?? null, l.role ?? null, l.memberId ?? null, l.createdBy ?? null, LINK_LIFETIME_HOURS[l.kind]],
  );
  return { id, token, expiresAt: (rows[0] as { expiresAt: Date }).expiresAt };
}

const LINK_COLUMNS = `l.id, l.kind, l.org_id AS "orgId", o.name AS "orgName", l.email, l.role, l.member_id AS "memberId",
  l.created_by AS "createdBy", l.created_at AS "createdAt", l.expires_at AS "expiresAt"`;

/** An open link (unused, not revoked, not expired), or none. */
export async function findOpenLink(db: Queryable, token: string): Promise<LinkRow | undefined> {
  if (!TOKEN_SHAPE.test(token)) return undefined;
  const { rows } = await db.query(
    `SELECT ${LINK_COLUMNS} FROM one_time_links l LEFT JOIN organizations o ON o.id = l.org_id
      WHERE l.token_hash = $1 AND l.used_at IS NULL AND l.revoked_at IS NULL AND l.expires_at > now()`,
    [hashToken(token)],
  );
  return rows[0] as LinkRow | undefined;
}

/** Spends a link: one conditional UPDATE, so of two accepts racing only one gets the row. */
export async function spendLink(db: Queryable, token: string): Promise<LinkRow | undefined> {
  if (!TOKEN_SHAPE.test(token)) return undefined;
  const { rows } = await db.query(
    `WITH spent AS (
       UPDATE one_time_links SET used_at = now()
        WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now()
        RETURNING *)
     SELECT ${LINK_COLUMNS} FROM spent l LEFT JOIN organizations o ON o.id = l.org_id`,
    [hashToken(token)],
  );
  return rows[0] as LinkRow | undefined;
}

/** Open invitations of an organization, newest first. */
export async function openInvitations(db: Queryable, orgId: string): Promise<LinkRow[]> {
  const { rows } = await db.query(
    `SELECT ${LINK_COLUMNS} FROM one_time_links l LEFT JOIN organizations o ON o.id = l.org_id
      WHERE l.org_id = $1 AND l.kind = 'invitation' AND l.used_at IS NULL AND l.revoked_at IS NULL AND l.expires_at > now()
      ORDER BY l.id DESC`,
    [orgId],
  );
  return rows as LinkRow[];
}

export async function revokeInvitation(db: Queryable, orgId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query(`UPDATE one_time_links SET revoked_at = now() WHERE id = $1 AND org_id = $2 AND kind = 'invitation' AND used_at IS NULL AND revoked_at IS NULL`, [id, orgId]);
  return (rowCount ?? 0) > 0;
}

/** Whether an organization still waits for its first owner through an open setup link. */
export async function hasOpenSetupLink(db: Queryable, orgId: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM one_time_links WHERE org_id = $1 AND kind = 'setup' AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now()`, [orgId]);
  return rows.length > 0;
}
