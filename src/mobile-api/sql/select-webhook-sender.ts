import type { Queryable } from '../../db/pool.js';
import type { WebhookSender } from '../webhook-keys.js';

export async function webhookSender(db: Queryable, deviceId: string): Promise<WebhookSender | null> {
  const { rows } = await db.query<WebhookSender>(
    `SELECT d.id AS "deviceId", d.org_id AS "orgId", k.signing_key AS "signingKey", d.app_version AS "appVersion", d.confirms_cancellation AS "confirmsCancellation"
     FROM devices d JOIN mobile_webhook_keys k ON k.device_id = d.id
     WHERE d.id = $1 AND d.revoked_at IS NULL AND d.protocol = 'mobile'`,
    [deviceId],
  );
  return rows[0] ?? null;
}
