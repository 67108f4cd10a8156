import { iso } from '../schemas/schema-kit.js';
import type { Queryable } from '../db/pool.js';
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

const SELECT_INCOMING = `SELECT i.id, i.org_id AS "orgId", i.device_id AS "deviceId", i.from_number AS "from", i.body,
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

export async function selectIncoming(db: Queryable, orgId: string, id: string): Promise<IncomingRow | undefined> {
  const { rows } = await db.query(`${SELECT_INCOMING} WHERE i.id = $1 AND i.org_id = $2`, [id, orgId]);
  return rows[0] as IncomingRow | undefined;
}

export async function selectIncomingByIds(db: Queryable, ids: string[]): Promise<IncomingRow[]> {
  const { rows } = await db.query(`${SELECT_INCOMING} WHERE i.id = ANY($1::text[]) ORDER BY i.id`, [ids]);
  return rows as IncomingRow[];
}

/** Newest first; `before` is the last id of the previous page. Fetches limit + 1 to detect a next page. */
export async function selectIncomingPage(db: Queryable, q: { orgId: string; deviceId?: string; before: string | null; limit: number }): Promise<IncomingRow[]> {
  const { rows } = await db.query(
    `${SELECT_INCOMING}
     WHERE i.org_id = $1 AND ($2::text IS NULL OR i.device_id = $2) AND ($3::text IS NULL OR i.id < $3)
     ORDER BY i.id DESC LIMIT $4`,
    [q.orgId, q.deviceId ?? null, q.before, q.limit + 1],
  );
  return rows as IncomingRow[];
}

/** Received SMS by a condition and order of the caller's (the search, src/search): `i` is the SMS. */
export async function selectIncomingWhere(db: Queryable, where: string, params: unknown[]): Promise<IncomingRow[]> {
  const { rows } = await db.query(`${SELECT_INCOMING} WHERE ${where}`, params);
  return rows as IncomingRow[];
}
