import type { HotClient } from '../../db/pool.js';

export interface EndpointTally {
  /** A success in this batch: the count restarts from the failures after it. */
  reset: boolean;
  failures: number;
  firstFailureAt: Date | null;
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
}

/** Applies each endpoint's change (its tally of a batch of attempts) to its counters, in one statement. */
export async function updateEndpointCounters(tx: HotClient, tallies: Map<string, EndpointTally>): Promise<void> {
  const list = [...tallies];
  await tx.query(
    `UPDATE webhook_endpoints w SET
       consecutive_failures = CASE WHEN u.reset THEN u.failures ELSE w.consecutive_failures + u.failures END,
       failing_since = CASE WHEN u.reset THEN u.first_failure ELSE COALESCE(w.failing_since, u.first_failure) END,
       last_success_at = COALESCE(u.last_success, w.last_success_at),
       last_failure_at = COALESCE(u.last_failure, w.last_failure_at)
     FROM unnest($1::text[], $2::boolean[], $3::int[], $4::timestamptz[], $5::timestamptz[], $6::timestamptz[])
       AS u(id, reset, failures, first_failure, last_success, last_failure)
     WHERE w.id = u.id`,
    [
      list.map(([id]) => id),
      list.map(([, t]) => t.reset),
      list.map(([, t]) => t.failures),
      list.map(([, t]) => t.firstFailureAt),
      list.map(([, t]) => t.lastSuccessAt),
      list.map(([, t]) => t.lastFailureAt),
    ],
  );
}
