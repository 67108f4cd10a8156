import type { Queryable } from '../../db/pool.js';
import { type Organization, ORGANIZATION_COLUMNS, type OrganizationSettings } from '../org-store.js';

export async function updateOrganization(db: Queryable, id: string, s: OrganizationSettings): Promise<Organization | undefined> {
  const { rows } = await db.query<Organization>(
    `UPDATE organizations SET name = COALESCE($2, name), default_country = COALESCE($3, default_country),
       daily_limit = COALESCE($4, daily_limit), retention_days = COALESCE($5, retention_days),
       ai_consent = COALESCE($6, ai_consent), auto_resend_attempts = COALESCE($7, auto_resend_attempts),
       auto_resend_codes = CASE WHEN $8 THEN $9::text[] ELSE auto_resend_codes END,
       carriers = CASE WHEN $10 THEN $11::jsonb ELSE carriers END,
       webhook_private_targets = COALESCE($12::text[], webhook_private_targets), webhook_plain_http = COALESCE($13, webhook_plain_http),
       updated_at = now()
     WHERE id = $1 RETURNING ${ORGANIZATION_COLUMNS}`,
    [
      id,
      s.name ?? null,
      s.defaultCountry ?? null,
      s.dailyLimit ?? null,
      s.retentionDays ?? null,
      s.aiConsent ?? null,
      s.autoResend?.attempts ?? null,
      s.autoResend?.failureCodes !== undefined,
      s.autoResend?.failureCodes ?? null,
      s.carriers !== undefined,
      s.carriers ? JSON.stringify(s.carriers) : null,
      s.webhookPrivateTargets ?? null,
      s.webhookPlainHttp ?? null,
    ],
  );
  return rows[0];
}
