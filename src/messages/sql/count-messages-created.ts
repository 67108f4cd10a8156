import type { Queryable } from '../../db/pool.js';
import { idFloor } from '../../ids/ids.js';
import { MESSAGE_STATUSES } from '../message.js';

/** The messages Postgres holds for an organization created in [fromMs, toMs). */
export async function countMessagesCreated(db: Queryable, orgId: string, fromMs: number, toMs: number): Promise<number> {
  // Ids are time-sortable: "created in the range" is an id range of each status's part of the
  // (org_id, status, id) index, which the status list lets Postgres read range by range.
  const { rows } = await db.query('SELECT count(*)::int AS n FROM messages WHERE org_id = $1 AND status = ANY($4::text[]) AND id >= $2 AND id < $3', [
    orgId,
    idFloor('message', fromMs),
    idFloor('message', toMs),
    MESSAGE_STATUSES,
  ]);
  return rows[0].n as number;
}
