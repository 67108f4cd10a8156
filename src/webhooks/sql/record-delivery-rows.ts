import type { HotClient } from '../../db/pool.js';
import { epochMsArray, numberArray, textArray } from '../../db/array-params.js';
import { UNFINISHED_DELIVERY_STATUSES } from '../schemas.js';
import type { AttemptOutcome } from '../worker/schedule.js';

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
  FROM (SELECT id, status, code, error, to_timestamp(started_ms / 1000) AS started, to_timestamp(next_ms / 1000) AS next,
          to_timestamp(finished_ms / 1000) AS finished, excerpt
        FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::float8[], $6::float8[], $7::float8[], $9::text[])
          AS r(id, status, code, error, started_ms, next_ms, finished_ms, excerpt)) u
  WHERE d.id = u.id AND d.status = ANY($8::text[])`;

/** The attempts' outcomes on their deliveries, prepared, one statement for the batch. */
export async function recordDeliveryRows(tx: HotClient, records: AttemptRecord[]): Promise<void> {
  await tx.query({
    name: 'webhook-record-deliveries',
    text: RECORD_DELIVERIES_STATEMENT,
    values: [
      textArray(records.map((r) => r.deliveryId)),
      textArray(records.map((r) => r.status)),
      numberArray(records.map((r) => r.statusCode)),
      textArray(records.map((r) => r.error)),
      epochMsArray(records.map((r) => r.startedAt)),
      epochMsArray(records.map((r) => r.nextAttemptAt)),
      epochMsArray(records.map((r) => r.finishedAt)),
      UNFINISHED_DELIVERY_STATUSES,
      textArray(records.map((r) => r.responseExcerpt)),
    ],
  });
}
