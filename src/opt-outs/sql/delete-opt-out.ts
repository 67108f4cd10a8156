import type { Queryable } from '../../db/pool.js';
import { OPT_OUT_COLUMNS, type OptOutCause, type OptOutRow } from '../opt-out-row.js';

/** Removes an entry (by id or by number) with its `removed` change; undefined when the organization has no such entry. */
export async function deleteOptOut(db: Queryable, orgId: string, entry: { id: string } | { number: string }, cause: OptOutCause): Promise<OptOutRow | undefined> {
  const { rows } = await db.query<OptOutRow>(
    `WITH removed AS (
       DELETE FROM opt_outs WHERE org_id = $1 AND (id = $2 OR number = $3) RETURNING *
     ), change AS (
       INSERT INTO opt_out_changes (org_id, number, action, source, incoming_message_id)
       SELECT org_id, number, 'removed', $4, $5 FROM removed
       ON CONFLICT (incoming_message_id) DO NOTHING
     )
     SELECT ${OPT_OUT_COLUMNS} FROM removed`,
    [orgId, 'id' in entry ? entry.id : null, 'number' in entry ? entry.number : null, cause.source, cause.incomingMessageId ?? null],
  );
  return rows[0];
}
