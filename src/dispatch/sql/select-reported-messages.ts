import type { Queryable } from '../../db/pool.js';
import type { MessageStatus } from '../../messages/message.js';

export interface ReportedMessage {
  id: string;
  status: MessageStatus;
  deviceId: string | null;
}

/** Where reported messages stand and which phone holds them: what judges a report that changed nothing. */
export async function selectReportedMessages(db: Queryable, ids: string[]): Promise<ReportedMessage[]> {
  const { rows } = await db.query<ReportedMessage>(`SELECT id, status, device_id AS "deviceId" FROM messages WHERE id = ANY($1::text[])`, [ids]);
  return rows;
}
