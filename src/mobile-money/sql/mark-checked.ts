import type { Queryable } from '../../db/pool.js';

export async function markChecked(tx: Queryable, incomingIds: string[]): Promise<void> {
  if (incomingIds.length === 0) return;
  await tx.query('UPDATE incoming_messages SET money_checked_at = now() WHERE id = ANY($1::text[]) AND money_checked_at IS NULL', [incomingIds]);
}
