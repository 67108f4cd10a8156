import type { Db } from '../../db/pool.js';
import type { DeliveryStatus } from '../schemas.js';

/** Everything one attempt needs, read in one query for a whole batch of jobs. */
export interface DeliveryWork {
  id: string;
  endpointId: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  eventId: string;
  eventType: string;
  /** The stored payload as text: exactly the bytes signed and sent. */
  body: string;
  url: string;
  enabled: boolean;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

export async function loadDeliveries(db: Db, ids: string[]): Promise<Array<DeliveryWork | null>> {
  const { rows } = await db.query(
    `SELECT d.id, d.endpoint_id AS "endpointId", d.status, d.attempts, d.next_attempt_at AS "nextAttemptAt",
       d.event_id AS "eventId", d.event_type AS "eventType", e.payload::text AS body,
       w.url, w.enabled, w.secret, w.previous_secret AS "previousSecret", w.previous_secret_expires_at AS "previousSecretExpiresAt"
     FROM webhook_deliveries d
     JOIN webhook_endpoints w ON w.id = d.endpoint_id
     JOIN events e ON e.id = d.event_id
     WHERE d.id = ANY($1::text[])`,
    [ids],
  );
  const byId = new Map((rows as DeliveryWork[]).map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id) ?? null);
}

/** The current secret, and the previous one until it expires: one v1 signature each. */
export function signingSecrets(w: DeliveryWork, now = new Date()): string[] {
  const previousValid = w.previousSecret && w.previousSecretExpiresAt && w.previousSecretExpiresAt > now;
  return previousValid ? [w.secret, w.previousSecret!] : [w.secret];
}
