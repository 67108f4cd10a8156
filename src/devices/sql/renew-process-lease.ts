import type { Queryable } from '../../db/pool.js';

/** Extends an API process's lease; false when it has none (never taken, or expired and swept). */
export async function renewProcessLease(db: Queryable, processId: string, leaseSeconds: number): Promise<boolean> {
  const { rowCount } = await db.query(`UPDATE api_processes SET lease_until = now() + $2 * interval '1 second' WHERE id = $1`, [processId, leaseSeconds]);
  return rowCount !== 0;
}
