import type { Queryable } from '../../db/pool.js';
import type { MessageEvent, MessageStatus } from '../../messages/message.js';

/** The creation entry of each message's timeline, naming who created it (a member, an automatic resend). */
export async function insertCreationEvents(
  tx: Queryable,
  messageIds: string[],
  creation: { source: MessageEvent['source']; code: string | null | undefined },
  at: Date,
  status: MessageStatus,
): Promise<void> {
  await tx.query(`INSERT INTO message_events (message_id, from_status, to_status, source, code, at) SELECT unnest($1::text[]), NULL, $5, $2, $3, $4`, [
    messageIds,
    creation.source,
    creation.code,
    at,
    status,
  ]);
}
