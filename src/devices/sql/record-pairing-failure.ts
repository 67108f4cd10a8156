import type { Queryable } from '../../db/pool.js';

/** Counts a failed attempt from the address this minute; counts older than an hour go. */
export async function recordPairingFailure(db: Queryable, address: string): Promise<void> {
  await db.query(
    `WITH old AS (DELETE FROM pairing_failures WHERE minute < now() - interval '1 hour')
     INSERT INTO pairing_failures (minute, address, failures) VALUES (date_trunc('minute', now()), $1, 1)
     ON CONFLICT (minute, address) DO UPDATE SET failures = pairing_failures.failures + 1`,
    [address],
  );
}
