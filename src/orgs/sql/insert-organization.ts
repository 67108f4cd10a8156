import type { Queryable } from '../../db/pool.js';
import { newId } from '../../ids/ids.js';
import { type Organization, ORGANIZATION_COLUMNS, type OrganizationSettings } from '../org-store.js';

export async function insertOrganization(db: Queryable, s: OrganizationSettings & { name: string }): Promise<Organization> {
  const { rows } = await db.query<Organization>(
    `INSERT INTO organizations (id, name, default_country, daily_limit, retention_days, ai_consent, auto_resend_attempts, auto_resend_codes, carriers,
       webhook_private_targets, webhook_plain_http)
     VALUES ($1, $2, COALESCE($3, 'MG'), COALESCE($4, 1000), COALESCE($5, 30), COALESCE($6, false), COALESCE($7, 0), $8, $9::jsonb,
       COALESCE($10, '{}'::text[]), COALESCE($11, false)) RETURNING ${ORGANIZATION_COLUMNS}`,
    [
      newId('organization'),
      s.name,
      s.defaultCountry ?? null,
      s.dailyLimit ?? null,
      s.retentionDays ?? null,
      s.aiConsent ?? null,
      s.autoResend?.attempts ?? null,
      s.autoResend?.failureCodes ?? null,
      s.carriers ? JSON.stringify(s.carriers) : null,
      s.webhookPrivateTargets ?? null,
      s.webhookPlainHttp ?? null,
    ],
  );
  return rows[0]!;
}
