import type { Db } from '../../../db/pool.js';
import { inTransaction } from '../../../db/pool.js';
import { PARTITION_UPKEEP_LOCK } from './partition-upkeep-lock.js';

/**
 * Makes the monthly partitions of messages, message_events and message_recipients (migration
 * 039's function) for `months` months from the month of `from`, those missing. Each is attached
 * under SHARE UPDATE EXCLUSIVE, which sends and reads do not wait for; the lock timeout keeps a
 * long transaction from holding it up, and the next pass tries again. Another worker's pass at
 * the same moment waits for this one (PARTITION_UPKEEP_LOCK), then finds the months made.
 * Returns how many months it made.
 */
export async function createPartitions(db: Db, from: Date, months: number): Promise<number> {
  return inTransaction(db, async (tx) => {
    await tx.query(`SET LOCAL lock_timeout = '5s'`);
    await tx.query('SELECT pg_advisory_xact_lock($1)', [PARTITION_UPKEEP_LOCK]);
    const { rows } = await tx.query('SELECT create_message_partitions($1, $2) AS made', [from, months]);
    return rows[0].made as number;
  });
}
