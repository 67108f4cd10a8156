import type { Queryable } from '../db/pool.js';
import { newId } from '../ids/ids.js';
import type { Carrier } from './carriers.js';
import type { SendWindows } from '../send-windows/windows.js';

export interface Organization {
  id: string;
  name: string;
  defaultCountry: string;
  dailyLimit: number;
  retentionDays: number;
  aiConsent: boolean;
  /** Automatic resends a message of this organization gets (0: off); a send may ask otherwise. */
  autoResendAttempts: number;
  /** The failure codes resent automatically; null: the shipped list (DEFAULT_RESEND_CODES). */
  autoResendCodes: string[] | null;
  /** Its own networks for carrier-aware routing; null: never set, the default (carriers.ts) applies. */
  carriers: Carrier[] | null;
  /** When its phones send (src/send-windows); null: at any hour. */
  sendWindows: SendWindows | null;
  /** Private webhook targets its owner allowed (src/webhooks/delivery/private-targets.ts); empty: none. */
  webhookPrivateTargets: string[];
  /** Plain http may reach the private targets on the LAN (loopback ones never need TLS). */
  webhookPlainHttp: boolean;
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS = `id, name, default_country AS "defaultCountry", daily_limit AS "dailyLimit",
  retention_days AS "retentionDays", ai_consent AS "aiConsent", auto_resend_attempts AS "autoResendAttempts",
  auto_resend_codes AS "autoResendCodes", carriers, created_at AS "createdAt", updated_at AS "updatedAt",
  send_windows AS "sendWindows", webhook_private_targets AS "webhookPrivateTargets", webhook_plain_http AS "webhookPlainHttp"`;

export interface OrganizationSettings {
  name?: string;
  defaultCountry?: string;
  dailyLimit?: number;
  retentionDays?: number;
  aiConsent?: boolean;
  /** `failureCodes: null` restores the shipped list; left out, the list stays as it is. */
  autoResend?: { attempts?: number; failureCodes?: string[] | null };
  /** null: back to the default table. */
  carriers?: Carrier[] | null;
  /** Normalised beforehand (normalisePrivateTargets). */
  webhookPrivateTargets?: string[];
  webhookPlainHttp?: boolean;
}

export async function insertOrganization(db: Queryable, s: OrganizationSettings & { name: string }): Promise<Organization> {
  const { rows } = await db.query(
    `INSERT INTO organizations (id, name, default_country, daily_limit, retention_days, ai_consent, auto_resend_attempts, auto_resend_codes, carriers,
       webhook_private_targets, webhook_plain_http)
     VALUES ($1, $2, COALESCE($3, 'MG'), COALESCE($4, 1000), COALESCE($5, 30), COALESCE($6, false), COALESCE($7, 0), $8, $9::jsonb,
       COALESCE($10, '{}'::text[]), COALESCE($11, false)) RETURNING ${COLUMNS}`,
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
  return rows[0] as Organization;
}

export async function findOrganization(db: Queryable, idOrName: string): Promise<Organization | undefined> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM organizations WHERE id = $1 OR name = $1`, [idOrName]);
  return rows[0] as Organization | undefined;
}

export async function listOrganizations(db: Queryable): Promise<Organization[]> {
  return (await db.query(`SELECT ${COLUMNS} FROM organizations ORDER BY id`)).rows as Organization[];
}

export async function updateOrganization(db: Queryable, id: string, s: OrganizationSettings): Promise<Organization | undefined> {
  const { rows } = await db.query(
    `UPDATE organizations SET name = COALESCE($2, name), default_country = COALESCE($3, default_country),
       daily_limit = COALESCE($4, daily_limit), retention_days = COALESCE($5, retention_days),
       ai_consent = COALESCE($6, ai_consent), auto_resend_attempts = COALESCE($7, auto_resend_attempts),
       auto_resend_codes = CASE WHEN $8 THEN $9::text[] ELSE auto_resend_codes END,
       carriers = CASE WHEN $10 THEN $11::jsonb ELSE carriers END,
       webhook_private_targets = COALESCE($12::text[], webhook_private_targets), webhook_plain_http = COALESCE($13, webhook_plain_http),
       updated_at = now()
     WHERE id = $1 RETURNING ${COLUMNS}`,
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
  return rows[0] as Organization | undefined;
}

export async function countOrganizations(db: Queryable): Promise<number> {
  return Number((await db.query('SELECT count(*) AS n FROM organizations')).rows[0].n);
}
