import type { Queryable } from '../../db/pool.js';
import type { MessageStatus } from '../message.js';

export interface MessageStatusRow {
  id: string;
  status: MessageStatus;
  failureCode: string | null;
  updatedAt: Date;
}

/** The current status of the organization's messages among these ids (primary-key reads). */
export async function selectMessageStatuses(db: Queryable, ids: string[], orgId: string): Promise<MessageStatusRow[]> {
  const { rows } = await db.query<MessageStatusRow>(`SELECT id, status, failure_code AS "failureCode", updated_at AS "updatedAt" FROM messages WHERE id = ANY($1::text[]) AND org_id = $2`, [
    ids,
    orgId,
  ]);
  return rows;
}
