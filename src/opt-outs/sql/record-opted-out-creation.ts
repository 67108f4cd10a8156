import type { Queryable } from '../../db/pool.js';
import type { MessageEvent } from '../../messages/message.js';

/**
 * The timeline of the messages a send created failed for opted-out recipients: their one entry,
 * created failed with code opted_out by whoever sent (api, member, system). Written in the send's
 * transaction with its other rows; returns how many.
 */
export async function recordOptedOutCreation(tx: Queryable, recipients: { id: string; failureCode?: string }[], source: MessageEvent['source'], at: Date): Promise<number> {
  const failed = recipients.filter((r) => r.failureCode !== undefined);
  if (failed.length === 0) return 0;
  await tx.query(`INSERT INTO message_events (message_id, from_status, to_status, source, code, at) SELECT t.id, NULL, 'failed', $3, t.code, $4 FROM unnest($1::text[], $2::text[]) AS t(id, code)`, [
    failed.map((r) => r.id),
    failed.map((r) => r.failureCode),
    source,
    at,
  ]);
  return failed.length;
}
