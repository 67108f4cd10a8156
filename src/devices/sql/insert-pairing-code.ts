import type { Queryable } from '../../db/pool.js';

/** Stores a pairing code's hash, valid for ttlSeconds; when it expires. */
export async function insertPairingCode(db: Queryable, codeHash: Buffer | string, orgId: string, name: string | null, ttlSeconds: number): Promise<Date> {
  const { rows } = await db.query<{ expiresAt: Date }>(
    `INSERT INTO pairing_codes (code_hash, org_id, name, expires_at) VALUES ($1, $2, $3, now() + $4 * interval '1 second')
     RETURNING expires_at AS "expiresAt"`,
    [codeHash, orgId, name, ttlSeconds],
  );
  return rows[0]!.expiresAt;
}
