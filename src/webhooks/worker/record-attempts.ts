import type { HotClient } from '../../db/pool.js';
import { UNFINISHED_DELIVERY_STATUSES } from '../schemas.js';
import type { AttemptOutcome } from './schedule.js';
import { stopPendingDeliveries } from '../sql/stop-pending-deliveries.js';

export interface AttemptRecord extends AttemptOutcome {
  deliveryId: string;
  endpointId: string;
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  startedAt: Date;
  finishedAt: Date;
  /** The first KiB of the answer as text; null when there was no answer. */
  responseExcerpt: string | null;
}

/** Attempts a delivery keeps in its log (attempt_log, migration 036): the older ones are dropped. */
export const ATTEMPTS_KEPT = 10;

interface EndpointTally {
  /** A success in this batch: the count restarts from the failures after it. */
  reset: boolean;
  failures: number;
  firstFailureAt: Date | null;
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
}

/** Folds a batch of attempts into one change per endpoint, in the order they happened. */
export function tallyByEndpoint(records: AttemptRecord[]): Map<string, EndpointTally> {
  const tallies = new Map<string, EndpointTally>();
  for (const r of [...records].sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime())) {
    const t = tallies.get(r.endpointId) ?? { reset: false, failures: 0, firstFailureAt: null, lastSuccessAt: null, lastFailureAt: null };
    if (r.ok) Object.assign(t, { reset: true, failures: 0, firstFailureAt: null, lastSuccessAt: r.finishedAt });
    else Object.assign(t, { failures: t.failures + 1, firstFailureAt: t.firstFailureAt ?? r.startedAt, lastFailureAt: r.finishedAt });
    tallies.set(r.endpointId, t);
  }
  return tallies;
}

async function updateEndpointCounters(tx: HotClient, tallies: Map<string, EndpointTally>): Promise<void> {
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

/** Endpoints failing without a success for disableAfterSeconds are disabled (reason "failing"). */
async function disableFailingEndpoints(tx: HotClient, endpointIds: string[], disableAfterSeconds: number, now: Date): Promise<Set<string>> {
  const { rows } = await tx.query(
    `UPDATE webhook_endpoints SET enabled = false, disabled_at = $3, disabled_reason = 'failing', updated_at = $3
     WHERE id = ANY($1::text[]) AND enabled AND failing_since IS NOT NULL AND failing_since <= $3::timestamptz - $2 * interval '1 second'
     RETURNING id`,
    [endpointIds, disableAfterSeconds, now],
  );
  return new Set(rows.map((r) => r.id as string));
}

/**
 * Statuses as a parameter, like CLAIM_STATEMENT's. Exported for the plan test. The attempt joins
 * the delivery's log in the same update (one attempt per delivery per batch, so dropping the
 * oldest one keeps the log at ATTEMPTS_KEPT).
 */
export const RECORD_DELIVERIES_STATEMENT = `UPDATE webhook_deliveries d SET status = u.status, attempts = d.attempts + 1, last_status_code = u.code,
    last_error = u.error, last_attempt_at = u.started, next_attempt_at = u.next, leased_until = NULL,
    delivered_at = CASE WHEN u.status = 'delivered' THEN u.finished ELSE NULL END,
    attempt_log = CASE WHEN jsonb_array_length(d.attempt_log) >= ${ATTEMPTS_KEPT} THEN d.attempt_log - 0 ELSE d.attempt_log END
      || jsonb_build_array(jsonb_build_object('number', d.attempts + 1, 'startedAt', u.started,
           'durationMs', (extract(epoch FROM u.finished - u.started) * 1000)::int, 'statusCode', u.code, 'responseExcerpt', u.excerpt, 'error', u.error))
  FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::timestamptz[], $6::timestamptz[], $7::timestamptz[], $9::text[])
    AS u(id, status, code, error, started, next, finished, excerpt)
  WHERE d.id = u.id AND d.status = ANY($8::text[])`;

async function updateDeliveries(tx: HotClient, records: AttemptRecord[]): Promise<void> {
  await tx.query({
    name: 'webhook-record-deliveries',
    text: RECORD_DELIVERIES_STATEMENT,
    values: [
      records.map((r) => r.deliveryId),
      records.map((r) => r.status),
      records.map((r) => r.statusCode),
      records.map((r) => r.error),
      records.map((r) => r.startedAt),
      records.map((r) => r.nextAttemptAt),
      records.map((r) => r.finishedAt),
      UNFINISHED_DELIVERY_STATUSES,
      records.map((r) => r.responseExcerpt),
    ],
  });
}

/**
 * Writes a batch of attempt results in one transaction: endpoint counters, auto-disabling, the
 * deliveries, and the end of the pending deliveries of endpoints just disabled. Returns the final
 * outcome of each attempt (a retry of an endpoint disabled here becomes dead). The transaction is
 * on the hot pool: planned on an ordinary connection, the deliveries' update read the whole table
 * while it was small.
 */
export async function recordAttempts(tx: HotClient, records: AttemptRecord[], disableAfterSeconds: number): Promise<AttemptOutcome[]> {
  const tallies = tallyByEndpoint(records);
  // Row locks in id order: two writers (processes) touching the same endpoints cannot deadlock.
  // NO KEY UPDATE, the lock the counters' UPDATE takes anyway: FOR UPDATE would also wait for
  // every transaction inserting deliveries of the endpoint (their foreign key takes KEY SHARE).
  await tx.query('SELECT 1 FROM webhook_endpoints WHERE id = ANY($1::text[]) ORDER BY id FOR NO KEY UPDATE', [[...tallies.keys()]]);
  await updateEndpointCounters(tx, tallies);
  const failing = [...tallies].filter(([, t]) => t.failures > 0).map(([id]) => id);
  const disabled = await disableFailingEndpoints(tx, failing, disableAfterSeconds, new Date());
  const final = records.map((r) => (disabled.has(r.endpointId) && r.status === 'retrying' ? { ...r, status: 'dead' as const, nextAttemptAt: null } : r));
  await updateDeliveries(tx, final);
  await stopPendingDeliveries(tx, [...disabled], 'endpoint disabled');
  return final.map((r) => ({ status: r.status, nextAttemptAt: r.nextAttemptAt }));
}
