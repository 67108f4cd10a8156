import type { Queryable } from '../../../db/pool.js';

/**
 * Takes the right to make the automatic resend of a failed message, in the resend's transaction:
 * its resends left go to 0 (settled). A second maker, in another process or the sweep, waits on
 * the row until the first commits, then finds nothing left and gets false; if the first rolls
 * back, it gets the row. One automatic resend per message, as migration 026's unique index
 * ensured before messages were partitioned (migration 031), without an index across partitions.
 */
export async function claimAutoResend(tx: Queryable, failedId: string): Promise<boolean> {
  const { rowCount } = await tx.query('UPDATE messages SET auto_resends_left = 0 WHERE id = $1 AND auto_resends_left > 0', [failedId]);
  return rowCount === 1;
}

/** Thrown in the resend's transaction when another made it first: the transaction is undone, daily count included. */
export class AutoResendMadeAlready extends Error {
  override name = 'AutoResendMadeAlready';
  constructor(failedId: string) {
    super(`the automatic resend of ${failedId} was made already`);
  }
}
