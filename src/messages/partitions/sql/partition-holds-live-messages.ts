import type { Queryable } from '../../../db/pool.js';
import { quoted } from './drop-partition.js';

/**
 * Whether a partition of messages still holds a message not yet final: queued, scheduled, or in
 * a phone's hands (`accepted` is only ever a scheduled send since migration 024). Each test
 * reads one of the partial indexes that hold only those (migrations 001, 010, 029), so an old
 * month of millions of delivered messages answers at once.
 */
export async function partitionHoldsLiveMessages(db: Queryable, partition: string): Promise<boolean> {
  const t = quoted(partition);
  const { rows } = await db.query(
    `SELECT EXISTS (SELECT 1 FROM ${t} WHERE status = 'queued')
         OR EXISTS (SELECT 1 FROM ${t} WHERE status IN ('claimed', 'sending'))
         OR EXISTS (SELECT 1 FROM ${t} WHERE send_at IS NOT NULL AND status IN ('accepted', 'queued')) AS live`,
  );
  return rows[0].live as boolean;
}
