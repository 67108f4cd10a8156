import type { HotClient } from '../../db/pool.js';
import type { AttemptOutcome } from './schedule.js';
import { stopPendingDeliveries } from '../sql/stop-pending-deliveries.js';
import { disableFailingEndpoints } from '../sql/disable-failing-endpoints.js';
import { lockEndpointRows } from '../sql/lock-endpoint-rows.js';
import { recordDeliveryRows, type AttemptRecord } from '../sql/record-delivery-rows.js';
import { updateEndpointCounters, type EndpointTally } from '../sql/update-endpoint-counters.js';

export { ATTEMPTS_KEPT, RECORD_DELIVERIES_STATEMENT, type AttemptRecord } from '../sql/record-delivery-rows.js';

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
  await lockEndpointRows(tx, [...tallies.keys()]);
  await updateEndpointCounters(tx, tallies);
  const failing = [...tallies].filter(([, t]) => t.failures > 0).map(([id]) => id);
  const disabled = await disableFailingEndpoints(tx, failing, disableAfterSeconds, new Date());
  const final = records.map((r) => (disabled.has(r.endpointId) && r.status === 'retrying' ? { ...r, status: 'dead' as const, nextAttemptAt: null } : r));
  await recordDeliveryRows(tx, final);
  await stopPendingDeliveries(tx, [...disabled], 'endpoint disabled');
  return final.map((r) => ({ status: r.status, nextAttemptAt: r.nextAttemptAt }));
}
