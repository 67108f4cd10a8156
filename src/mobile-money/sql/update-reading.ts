import type { Queryable } from '../../db/pool.js';
import { READING_COLUMNS } from '../event-row.js';

/** Replaces the record's reading columns (READING_COLUMNS order). */
export async function updateReadingRow(tx: Queryable, eventId: string, values: unknown[]): Promise<void> {
  await tx.query(`UPDATE mobile_money_events SET (${READING_COLUMNS}) = (${values.map((_, i) => `$${i + 2}`).join(', ')}), updated_at = now() WHERE id = $1`, [eventId, ...values]);
}
