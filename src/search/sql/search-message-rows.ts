import type { Queryable } from '../../db/pool.js';
import { MESSAGE_COLUMNS, type MessageRow } from '../../messages/message.js';
import { messagePageStatement } from '../../messages/sql/select-message-page.js';
import { recipientIds } from '../../messages/sql/recipient-ids.js';

const WINDOW_COLUMNS = `id, org_id AS "orgId", to_number AS "to", body`;

export interface MessageSearch {
  orgId: string;
  /** How many of the organization's newest messages the text and digit matches read. */
  window: number;
  /** The text as a LIKE pattern (`%…%`, escaped). */
  pattern: string;
  /** The digits typed, or '' when the text is not a number. */
  digits: string;
  limit: number;
  /** The text as typed: an id. */
  text: string;
  /** The text read as a number (E.164), or null. */
  number: string | null;
}

/**
 * Among the organization's newest `window` messages, those whose body holds the text or whose
 * recipient holds the digits; among all of them, the one with the id or those to the number. A
 * message may come twice (both branches).
 */
export async function searchMessageRows(db: Queryable, s: MessageSearch): Promise<MessageRow[]> {
  // The window's rows carry only what is matched (a fifth of the columns): its merge and filter
  // move 100,000 narrow rows, and the few found are read whole by id.
  const { rows } = await db.query<MessageRow>(
    `WITH found AS (SELECT id FROM (${messagePageStatement(undefined, false, WINDOW_COLUMNS)}) recent
       WHERE body ILIKE $3 OR ($4 <> '' AND "to" LIKE $5) ORDER BY id DESC LIMIT $6)
     (SELECT ${MESSAGE_COLUMNS} FROM messages WHERE org_id = $1 AND id IN (SELECT id FROM found) ORDER BY id DESC)
     UNION ALL (SELECT ${MESSAGE_COLUMNS} FROM messages WHERE org_id = $1 AND id IN (SELECT $7 UNION ALL (${recipientIds('$1', '$8', '$6')})) ORDER BY id DESC LIMIT $6)`,
    [s.orgId, s.window, s.pattern, s.digits, `%${s.digits}%`, s.limit, s.text, s.number],
  );
  return rows;
}
