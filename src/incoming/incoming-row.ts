import { iso } from '../schemas/schema-kit.js';
import type { IncomingMessage } from './schemas.js';

/** An incoming_messages row joined with the id, provider and classification of its reading. */
export interface IncomingRow {
  id: string;
  orgId: string;
  deviceId: string;
  from: string;
  body: string | null;
  simSubscriptionId: number | null;
  receivedAt: Date;
  createdAt: Date;
  retentionExpiresAt: Date;
  bodyPurgedAt: Date | null;
  mmId: string | null;
  mmProvider: string | null;
  mmClassification: string | null;
}

export const SELECT_INCOMING = `SELECT i.id, i.org_id AS "orgId", i.device_id AS "deviceId", i.from_number AS "from", i.body,
  i.sim_subscription_id AS "simSubscriptionId", i.received_at AS "receivedAt", i.created_at AS "createdAt",
  i.retention_expires_at AS "retentionExpiresAt", i.body_purged_at AS "bodyPurgedAt",
  m.id AS "mmId", m.provider AS "mmProvider", m.classification AS "mmClassification"
  FROM incoming_messages i LEFT JOIN mobile_money_events m ON m.incoming_message_id = i.id`;

export function toIncomingMessage(r: IncomingRow): IncomingMessage {
  return {
    id: r.id,
    deviceId: r.deviceId,
    from: r.from,
    body: r.body,
    simSubscriptionId: r.simSubscriptionId,
    receivedAt: r.receivedAt.toISOString(),
    createdAt: r.createdAt.toISOString(),
    retentionExpiresAt: r.retentionExpiresAt.toISOString(),
    bodyPurgedAt: iso(r.bodyPurgedAt),
    mobileMoney: r.mmId ? { id: r.mmId, provider: r.mmProvider!, classification: r.mmClassification! } : null,
  };
}
