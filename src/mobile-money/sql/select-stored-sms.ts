import type { Queryable } from '../../db/pool.js';
import { READING_COLUMNS } from '../event-row.js';

const COLUMN_NAMES = READING_COLUMNS.split(',').map((c) => c.trim());

export interface StoredSms {
  id: string;
  orgId: string;
  from: string;
  body: string;
  aiConsent: boolean;
  eventId: string | null;
  reviewStatus: string | null;
  /** The record's reading columns (READING_COLUMNS order), or null when it has none. */
  current: unknown[] | null;
}

/** The next `limit` SMS in scope with a body, after `after` (by id), each with its record's reading. */
export async function selectStoredSms(db: Queryable, scope: unknown[], after: string, limit: number): Promise<StoredSms[]> {
  const { rows } = await db.query<StoredSms>(
    `SELECT i.id, i.org_id AS "orgId", i.from_number AS "from", i.body, o.ai_consent AS "aiConsent",
       e.id AS "eventId", e.review_status AS "reviewStatus",
       CASE WHEN e.id IS NULL THEN NULL ELSE json_build_array(${COLUMN_NAMES.map((c) => `e.${c}`).join(', ')}) END AS current
     FROM incoming_messages i JOIN organizations o ON o.id = i.org_id
     LEFT JOIN mobile_money_events e ON e.incoming_message_id = i.id
     WHERE ($1::text IS NULL OR i.org_id = $1) AND ($2::timestamptz IS NULL OR i.received_at >= $2)
       AND i.body IS NOT NULL AND i.id > $3
     ORDER BY i.id LIMIT ${limit}`,
    [...scope, after],
  );
  return rows;
}
