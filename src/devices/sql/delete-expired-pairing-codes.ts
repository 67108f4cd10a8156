import type { Queryable } from '../../db/pool.js';

/** Unused codes are worthless once expired; used ones stay as the record of who paired what. */
export async function deleteExpiredPairingCodes(db: Queryable): Promise<void> {
  await db.query(`DELETE FROM pairing_codes WHERE used_at IS NULL AND expires_at < now() - interval '1 day'`);
}
