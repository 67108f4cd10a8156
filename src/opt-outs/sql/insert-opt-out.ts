import type { Queryable } from '../../db/pool.js';
import { newId } from '../../ids/ids.js';
import { OPT_OUT_COLUMNS, type OptOutCause, type OptOutRow } from '../opt-out-row.js';

/**
 * Adds a number to the organization's list with its `added` change, or answers the entry it
 * already has (created false, nothing written): adding is idempotent.
 */
export async function insertOptOut(db: Queryable, orgId: string, number: string, cause: OptOutCause & { reason?: string | null }): Promise<{ row: OptOutRow; created: boolean }> {
  const { rows } = await db.query(
    `WITH added AS (
       INSERT INTO opt_outs (id, org_id, number, source, incoming_message_id, reason) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (org_id, number) DO NOTHING RETURNING *
     ), change AS (
       INSERT INTO opt_out_changes (org_id, number, action, source, incoming_message_id)
       SELECT org_id, number, 'added', source, incoming_message_id FROM added
       ON CONFLICT (incoming_message_id) DO NOTHING
     )
     SELECT ${OPT_OUT_COLUMNS}, true AS created FROM added
     UNION ALL
     SELECT ${OPT_OUT_COLUMNS}, false AS created FROM opt_outs WHERE org_id = $2 AND number = $3`,
    [newId('optOut'), orgId, number, cause.source, cause.incomingMessageId ?? null, cause.reason ?? null],
  );
  // The second part reads the table as it was before the statement: a new entry is in the first only.
  const row = rows.find((r) => r.created) ?? rows[0];
  if (!row) throw new Error(`opt-out of ${number} neither added nor found (added concurrently by another request); retry`);
  const { created, ...entry } = row;
  return { row: entry as OptOutRow, created: created as boolean };
}
