import type { Queryable } from '../../db/pool.js';

/** Takes (or takes again) an API process's lease. */
export async function takeProcessLease(db: Queryable, processId: string, leaseSeconds: number): Promise<void> {
  await db.query(
    `INSERT INTO api_processes (id, lease_until) VALUES ($1, now() + $2 * interval '1 second')
         ON CONFLICT (id) DO UPDATE SET lease_until = EXCLUDED.lease_until`,
    [processId, leaseSeconds],
  );
}
