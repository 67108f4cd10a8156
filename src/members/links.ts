import { createHash } from 'node:crypto';
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

export const hashToken = (token: string) => createHash('sha256').update(token).digest();
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The address members open: the token rides in the fragment, which no server or proxy sees. */
export const linkUrl = (baseUrl: string, token: string) => `${baseUrl}/link#${token}`;

export const LINK_COLUMNS = `l.id, l.kind, l.org_id AS "orgId", o.name AS "orgName", l.email, l.role, l.member_id AS "memberId",
  l.created_by AS "createdBy", l.created_at AS "createdAt", l.expires_at AS "expiresAt"`;
