import type { Queryable } from '../../db/pool.js';
import { idFloor } from '../../ids/ids.js';
import { MESSAGE_STATUSES } from '../message.js';

/**
 * The messages Postgres holds for an organization created in [fromMs, toMs), as the daily limit
 * counts them: those created failed for an opted-out recipient (src/opt-outs) do not count.
 */
export async function countMessagesCreated(db: Queryable, orgId: string, fromMs: number, toMs: number): Promise<number> {
  // Ids are time-sortable: "created in the range" is an id range of each status's part of the
  // (org_id, status, id) index, which the status list lets Postgres read range by range. Only the
  // failed part is read from the table, for its failure codes.
  const { rows } = await db.query(
    `SELECT (SELECT count(*) FROM messages WHERE org_id = $1 AND status = ANY($4::text[]) AND id >= $2 AND id < $3)
       - (SELECT count(*) FROM messages WHERE org_id = $1 AND status = 'failed' AND failure_code = 'opted_out' AND id >= $2 AND id < $3) AS n`,
    [orgId, idFloor('message', fromMs), idFloor('message', toMs), MESSAGE_STATUSES],
  );
  return Number(rows[0].n);
}
