import type { Queryable } from '../../db/pool.js';

export interface PairingFailures {
  /** Failed attempts this minute, server-wide. */
  all: number;
  /** Failed attempts this minute from the address. */
  mine: number;
  /** Seconds until the next minute. */
  retryAfter: number;
}

export async function selectPairingFailures(db: Queryable, address: string): Promise<PairingFailures> {
  const { rows } = await db.query<PairingFailures>(
    `SELECT coalesce(sum(failures), 0)::int AS "all", coalesce(sum(failures) FILTER (WHERE address = $1), 0)::int AS mine,
       60 - extract(epoch FROM now() - date_trunc('minute', now())) AS "retryAfter"
     FROM pairing_failures WHERE minute = date_trunc('minute', now())`,
    [address],
  );
  return rows[0]!;
}
