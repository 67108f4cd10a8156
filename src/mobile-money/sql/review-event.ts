import type { Queryable } from '../../db/pool.js';
import { EVENT_COLUMNS, toMobileMoneyEvent, type MobileMoneyRow } from '../event-row.js';
import type { MobileMoneyEvent } from '../schemas.js';

/** A member looked at the record: review.status `reviewed` with their note. Null: no such record. */
export async function reviewEvent(db: Queryable, eventId: string, note: string, orgId?: string): Promise<MobileMoneyEvent | null> {
  const { rows } = await db.query<MobileMoneyRow>(
    `UPDATE mobile_money_events SET review_status = 'reviewed', review_note = $2, reviewed_at = now(), updated_at = now()
     WHERE id = $1 AND ($3::text IS NULL OR org_id = $3) RETURNING ${EVENT_COLUMNS}`,
    [eventId, note, orgId ?? null],
  );
  const row = rows[0];
  return row ? toMobileMoneyEvent(row) : null;
}
