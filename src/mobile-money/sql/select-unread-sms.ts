import type { Queryable } from '../../db/pool.js';

export interface SmsToRead {
  id: string;
  orgId: string;
  from: string;
  body: string;
  aiConsent: boolean;
}

/** The given SMS that still have a body and were not read yet; others are skipped silently. */
export async function selectUnreadSms(db: Queryable, ids: string[]): Promise<SmsToRead[]> {
  const { rows } = await db.query<SmsToRead>(
    `SELECT i.id, i.org_id AS "orgId", i.from_number AS "from", i.body, o.ai_consent AS "aiConsent"
     FROM incoming_messages i JOIN organizations o ON o.id = i.org_id
     WHERE i.id = ANY($1::text[]) AND i.money_checked_at IS NULL AND i.body IS NOT NULL ORDER BY i.id`,
    [ids],
  );
  return rows;
}
