import type { Queryable } from '../../db/pool.js';

export async function countOrganizations(db: Queryable): Promise<number> {
  return Number((await db.query<{ n: number }>('SELECT count(*) AS n FROM organizations')).rows[0]!.n);
}
