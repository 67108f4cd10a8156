import type { Scope } from './principal.js';

export interface ApiKeyRow {
  id: string;
  orgId: string;
  name: string;
  hint: string;
  scopes: Scope[];
  ratePerSecond: number | null;
  rateBurst: number | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  replacedBy: string | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}

export const API_KEY_COLUMNS = `id, org_id AS "orgId", name, hint, scopes, rate_per_second AS "ratePerSecond",
  rate_burst AS "rateBurst", expires_at AS "expiresAt", revoked_at AS "revokedAt",
  replaced_by AS "replacedBy", last_used_at AS "lastUsedAt", created_at AS "createdAt"`;

export interface NewApiKey {
  orgId: string;
  name: string;
  scopes: readonly Scope[];
  expiresAt?: Date | null;
  ratePerSecond?: number | null;
  rateBurst?: number | null;
}
