import type { Queryable } from '../../db/pool.js';
import { OPT_OUT_COLUMNS, type OptOutRow } from '../opt-out-row.js';

/** Newest first; `before` is the last id of the previous page; limit + 1 rows to detect a next page. */
export async function selectOptOutPage(db: Queryable, q: { orgId: string; number?: string; before: string | null; limit: number }): Promise<OptOutRow[]> {
  const { rows } = await db.query<OptOutRow>(
    `SELECT ${OPT_OUT_COLUMNS} FROM opt_outs
     WHERE org_id = $1 AND ($2::text IS NULL OR number = $2) AND ($3::text IS NULL OR id < $3)
     ORDER BY id DESC LIMIT $4`,
    [q.orgId, q.number ?? null, q.before, q.limit + 1],
  );
  return rows;
}
