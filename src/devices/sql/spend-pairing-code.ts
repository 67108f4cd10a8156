import type { Queryable } from '../../db/pool.js';

/** Spends an open code in one conditional UPDATE (of two phones racing, one gets it); undefined when none. */
export async function spendPairingCode(tx: Queryable, codeHash: Buffer | string): Promise<{ orgId: string; name: string | null } | undefined> {
  const { rows } = await tx.query<{ orgId: string; name: string | null }>(
    `UPDATE pairing_codes SET used_at = now() WHERE code_hash = $1 AND used_at IS NULL AND expires_at > now()
       RETURNING org_id AS "orgId", name`,
    [codeHash],
  );
  return rows[0];
}
