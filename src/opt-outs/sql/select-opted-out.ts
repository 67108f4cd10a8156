import type { Queryable } from '../../db/pool.js';
import { textArray } from '../../db/array-params.js';

/** Which of these numbers (E.164) the organization may not send to: one statement for a whole send. */
export async function selectOptedOut(db: Queryable, orgId: string, numbers: string[]): Promise<Set<string>> {
  const { rows } = await db.query({
    name: 'select-opted-out',
    text: 'SELECT number FROM opt_outs WHERE org_id = $1 AND number = ANY($2::text[])',
    values: [orgId, textArray(numbers)],
  });
  return new Set(rows.map((r) => r.number as string));
}
