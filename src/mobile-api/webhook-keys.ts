import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/pool.js';

/**
 * The key a phone signs its webhooks with, made on its first settings sync and the same ever
 * after (a new one would leave the phone's queued webhooks unverifiable). 32 random bytes,
 * base64url: the app takes any string.
 */
export async function signingKeyFor(db: Queryable, deviceId: string): Promise<string> {
  const { rows } = await db.query(
    `WITH made AS (
       INSERT INTO mobile_webhook_keys (device_id, signing_key) VALUES ($1, $2)
       ON CONFLICT (device_id) DO NOTHING RETURNING signing_key)
     SELECT signing_key FROM made UNION ALL SELECT signing_key FROM mobile_webhook_keys WHERE device_id = $1`,
    [deviceId, randomBytes(32).toString('base64url')],
  );
  return (rows[0] as { signing_key: string }).signing_key;
}

/** The phone a webhook names, when it is a mobile phone that may still report, with its key. */
export interface WebhookSender {
  deviceId: string;
  orgId: string;
  signingKey: string;
  appVersion: string | null;
  confirmsCancellation: boolean;
}

export async function webhookSender(db: Queryable, deviceId: string): Promise<WebhookSender | null> {
  const { rows } = await db.query(
    `SELECT d.id AS "deviceId", d.org_id AS "orgId", k.signing_key AS "signingKey", d.app_version AS "appVersion", d.confirms_cancellation AS "confirmsCancellation"
     FROM devices d JOIN mobile_webhook_keys k ON k.device_id = d.id
     WHERE d.id = $1 AND d.revoked_at IS NULL AND d.protocol = 'mobile'`,
    [deviceId],
  );
  return (rows[0] as WebhookSender | undefined) ?? null;
}
