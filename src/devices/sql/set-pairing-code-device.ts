import type { Queryable } from '../../db/pool.js';

/** Records which device a spent code paired. */
export async function setPairingCodeDevice(tx: Queryable, codeHash: Buffer | string, deviceId: string): Promise<void> {
  await tx.query('UPDATE pairing_codes SET device_id = $2 WHERE code_hash = $1', [codeHash, deviceId]);
}
