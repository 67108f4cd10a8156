import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/pool.js';
import { newId } from '../../ids/ids.js';
import type { Role } from '../../auth/principal.js';
import { type LinkKind, LINK_LIFETIME_HOURS, hashToken } from '../links.js';

export async function createLink(
  db: Queryable,
  l: { kind: LinkKind; orgId: string; email?: string | null; role?: Role | null; memberId?: string | null; createdBy?: string | null },
): Promise<{ id: string; token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const id = newId('oneTimeLink');
  const { rows } = await db.query<{ expiresAt: Date }>(
    `INSERT INTO one_time_links (token_hash, id, kind, org_id, email, role, member_id, created_by, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + $9 * interval '1 hour') RETURNING expires_at AS "expiresAt"`,
    [hashToken(token), id, l.kind, l.orgId, l.email ?? null, l.role ?? null, l.memberId ?? null, l.createdBy ?? null, LINK_LIFETIME_HOURS[l.kind]],
  );
  return { id, token, expiresAt: rows[0]!.expiresAt };
}
